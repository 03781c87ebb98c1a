package experiment

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestEngineClockSilentAfterStatement: the server stops answering
// (SIGSTOP of the session's backend) right after the timed statement,
// so the engine clock's read after it is the call that waits out the
// I/O time-out. That is the run's fault, named as the silence, never an
// engine time to do without while the run goes on to the next statement
// on a lost connection (how TestServerStopsAnsweringTimedQueries/wisconsin
// ended as "count result relation: conn closed" under load).
func TestEngineClockSilentAfterStatement(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := dbms.Open(ctx, inst.URL+"?io_timeout=1s")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	clock, timing, err := startEngineClock(ctx, e, "")
	if err != nil || clock == nil {
		t.Fatalf("engine clock: %v (%+v)", err, timing)
	}
	p, err := e.(dbms.ProcessReporter).QueryProcess(ctx)
	if err != nil || p.PID == 0 {
		t.Fatalf("backend: %+v, %v", p, err)
	}
	defer syscall.Kill(p.PID, syscall.SIGCONT)

	x, err := clock.around(ctx, "SELECT 1", func() (float64, int64, error) {
		_, err := e.Exec(ctx, "SELECT 1")
		if err == nil {
			err = syscall.Kill(p.PID, syscall.SIGSTOP)
		}
		return 1, 1, err
	})
	if err == nil || !strings.Contains(err.Error(), "no answer from the server within the I/O time-out of 1s") || !dbms.Classify(err).SessionFault() {
		t.Errorf("around a statement after which the server went silent: %v (engine time %+v, none %q); want the silence as the run's fault", err, x.engine, x.engineNone)
	}
}
