package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSilenceStaysTheCause: the backend of a session is stopped
// (SIGSTOP). The call waiting on it fails after the URL's io_timeout and
// pgx closes the connection; every later call of the session finds it
// closed ("conn closed") and must still name the time-out as the cause,
// however many calls classified an error in between (an engine-time read
// between the statement and the next one took the time-out once, and the
// next call said only "conn closed": the wisconsin row of
// TestServerStopsAnsweringTimedQueries under load). A new session has no
// silence to name.
func TestSilenceStaysTheCause(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	e := open(t, inst.URL+"?io_timeout=1s")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pid, err := e.BackendPID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			syscall.Kill(pid, syscall.SIGCONT)
			resumed = true
		}
	}
	defer resume()

	for i, call := range []func() error{
		func() error { _, err := e.Exec(ctx, "SELECT 1"); return err },
		func() error { _, err := dbms.FirstValue(ctx, e, "SELECT 2"); return err },
		func() error { _, err := e.QueryCount(ctx, "SELECT 3"); return err },
		func() error { _, err := e.Exec(ctx, "SELECT 4"); return err },
	} {
		err := call()
		var te *blockio.TimeoutError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "no answer from the server within the I/O time-out of 1s") {
			t.Errorf("call %d on the silent session: %v; want the I/O time-out as its cause", i+1, err)
		}
		if c := dbms.Classify(err); !c.SessionFault() {
			t.Errorf("call %d: class %v, want the session's fault", i+1, c)
		}
	}

	// The backend answers again; a fresh session's own faults are its
	// own: one ended by the server is not the old silence.
	resume()
	if err := e.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	pid, err = e.BackendPID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admin := open(t, inst.URL)
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend("+strconv.Itoa(pid)+")"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		_, err := e.Exec(ctx, "SELECT 5")
		if err == nil || strings.Contains(err.Error(), "no answer from the server") {
			t.Errorf("call %d after the new session was ended: %v; want its own fault, not the old silence", i+1, err)
		}
	}
}
