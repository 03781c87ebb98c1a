package parse

import "os"

// expressionsScript is 001_pgbench_expressions of pgbench's tests
// (t/001_pgbench_with_server.pl), whose debug() output numbers its commands;
// the pgbench command's suite test runs the same file.
var expressionsScript = func() string {
	b, err := os.ReadFile("testdata/001_pgbench_expressions.sql")
	if err != nil {
		panic(err)
	}
	return string(b)
}()
