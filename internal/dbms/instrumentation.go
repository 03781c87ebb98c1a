package dbms

import "context"

// Instrumented is an engine whose statement instrumentation can be read:
// what it records of each statement at a cost to each (a statistics
// extension, a statement history, a query log). A run records it in its
// manifest, so that a reader knows whether the engine was measured as it
// is or instrumented.
type Instrumented interface {
	// Instrumentation reads from the engine, by setting name, what it
	// records of this session's statements. Only the session's trouble
	// is an error: a part the session may not read is left out.
	Instrumentation(ctx context.Context) (map[string]string, error)
}
