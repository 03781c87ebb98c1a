// Package expr is pgbench's \set expression language: its lexer and parser,
// its values, its evaluation and its built-in functions, with the random
// generator and hashes that make a script's numbers the ones pgbench 15
// computes from the same seeds.
//
// What pgbench does is the specification here, including where it is
// surprising: NULL AND x is NULL without evaluating x, x > y evaluates y
// first, 1 << 64 is 1 (the shift count taken modulo 64, as the x86 shift
// instruction pgbench compiles to does), IS compares kinds, and a double
// printed into SQL has 15 significant digits.
//
// The package knows nothing of scripts, sessions or engines. A script's
// runtime fills a Context per client: its variables (Variables, or any
// VarLookup), its generator (a PRNG seeded as SeedClients describes), where
// debug() writes, and which command is running. Parse is called once per
// \set, \if or \elif; Eval per execution, from the client's goroutine only.
package expr
