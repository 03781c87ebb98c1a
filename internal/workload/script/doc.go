// Package script runs pgbench scripts on any engine dbgauge drives: the
// runtime of pgbench's script language, whose files package parse reads
// and whose expressions package expr evaluates.
//
// A Program is a run's scripts (with their weights and per-engine
// variants) and options (protocol, --max-tries, -D, --allow-shell, scale,
// random seed), checked once. A Client is one session's runner: Setup
// binds it to its engine session (compiling the scripts for the engine's
// placeholders and preparing their statements under the prepared
// protocol), Run runs one transaction: a script chosen by weight, run
// once, retried on a serialization failure or deadlock with its variables
// and random state restored. The package never opens an engine, never
// loops over transactions and never prints: the caller's driver does.
//
// The engine side is two abilities of package dbms: TextQuerier (any SQL,
// with or without arguments, results as text with column names) and, for
// pipelines, Pipeliner. Transaction statements in a script (BEGIN, COMMIT,
// END, ROLLBACK ...) go through dbms.Transactor, so that a script written
// for pgbench runs on engines whose SQL has no such statements.
// docs/pgbench-scripts.md §7-§11 says all this for users.
package script
