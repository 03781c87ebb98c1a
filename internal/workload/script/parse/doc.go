// Package parse turns a pgbench script file into a checked program: the SQL
// commands split the way psql's lexer splits them, the meta-commands with
// their arguments, the \if chains with their jump targets precomputed, and
// every mistake pgbench refuses before it connects refused here too, as one
// error "FILE:LINE:COL: message".
//
// The package knows pgbench's script language and nothing else: it never
// evaluates an expression (Options.ParseExpr parses them, and the value it
// returns is kept opaque in the command), never talks to an engine and never
// runs a command. The runtime that executes a Script walks Commands in order
// (see Command for the jumps) and renders each SQL Text in one of pgbench's
// three protocols with the engine's placeholder.
//
// The behaviour followed is pgbench 15's (src/bin/pgbench/pgbench.c,
// ParseScript and process_backslash_command; src/fe_utils/psqlscan.l),
// plus \syncpipeline from pgbench 17. Where this package refuses more than
// pgbench at parse time (an unterminated quoted string, a pipeline misused,
// an invalid variable name in \set) pgbench would fail the same script when
// it runs; the documentation of each check says so. docs/pgbench-scripts.md
// says all this for users, section by section (cited below as §N).
package parse
