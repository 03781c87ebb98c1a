package dbms

import (
	"context"
	"os"
)

// Process names the operating-system process (and thread) that evaluates a
// session's queries, for the timing protocol's per-process measures.
type Process struct {
	// PID is the process; 0 when the engine cannot say (the caller then
	// looks for the process listening on the server's port).
	PID int
	// TID, when not 0, is the thread of PID that serves this session.
	TID int
	// Embedded: the engine runs inside dbgauge's own process.
	Embedded bool
	// How says where the answer came from, for the report.
	How string
}

// ProcessReporter is implemented by engines that can name their query
// process.
type ProcessReporter interface {
	QueryProcess(ctx context.Context) (Process, error)
}

// EmbeddedProcess is the query process of an engine linked into dbgauge.
func EmbeddedProcess(engine string) Process {
	return Process{PID: os.Getpid(), Embedded: true, How: engine + " runs inside dbgauge's own process"}
}

// Explainer is implemented by engines that can show the plan of a query
// without running it. The text leaves out estimates that change with the
// statistics (row counts, costs), so that two explains of the same plan
// compare equal.
type Explainer interface {
	Explain(ctx context.Context, query string) (string, error)
}

// SingleProcesser is implemented by engines that may spread one query over
// several processes (PostgreSQL's parallel workers): SingleProcess makes
// the session evaluate each query in its own process alone, as the timing
// protocol's one query process needs, and says what it changed.
type SingleProcesser interface {
	SingleProcess(ctx context.Context) (string, error)
}
