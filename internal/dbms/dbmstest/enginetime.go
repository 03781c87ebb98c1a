package dbmstest

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// EngineTimedSession is an adapter's session with its own timing.
type EngineTimedSession interface {
	dbms.Engine
	dbms.EngineTimer
}

// EngineTimed runs stmt between BeforeStatement and AfterStatement after
// a pause of the client, and returns the engine's time of it, whether
// the engine knew it, and the client's time of the pause and the
// statement: a pause shows in the client's time only.
func EngineTimed(t testing.TB, e EngineTimedSession, pause time.Duration, stmt string) (dbms.EngineTime, bool, float64) {
	t.Helper()
	ctx := context.Background()
	if err := e.BeforeStatement(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	time.Sleep(pause)
	if _, err := e.QueryRows(ctx, stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	client := float64(time.Since(start).Nanoseconds()) / 1e6
	et, ok, err := e.AfterStatement(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	return et, ok, client
}
