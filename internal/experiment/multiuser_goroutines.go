package experiment

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
)

// usersRun is one start of n users: the master's wall time from the release
// to the last user's end, and each user's own time and rows.
type usersRun struct {
	wall  time.Duration
	users []time.Duration
	rows  int64
}

// runGoroutines runs each script in its own goroutine on its own session.
// The sessions are opened and the goroutines parked on a barrier before
// the clock starts, so the time holds the scripts and nothing of the
// connecting; with no scripts it measures the master's release and join
// alone (the zero-user run).
func runGoroutines(ctx context.Context, url func(user int) string, table string, scripts [][]Retrieve) (usersRun, error) {
	engines := make([]dbms.Engine, 0, len(scripts))
	defer func() {
		for _, e := range engines {
			e.Close()
		}
	}()
	for u := range scripts {
		e, err := dbms.Open(ctx, url(u))
		if err != nil {
			return usersRun{}, fmt.Errorf("user %d: connect: %w", u+1, err)
		}
		engines = append(engines, e)
	}
	out := usersRun{users: make([]time.Duration, len(scripts))}
	rows := make([]int64, len(scripts))
	errs := make([]error, len(scripts))
	// The users go through the load driver's client I/O path: each on a
	// thread of its own, blocking in the kernel for its replies, aborted
	// if ctx ends (Ctrl-C).
	defer driver.EnsurePs(len(scripts))()
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	for u := range scripts {
		ready.Add(1)
		done.Add(1)
		go driver.OnThread(engines[u], func() {
			defer done.Done()
			cctx, stop := driver.CallContext(ctx, engines[u])
			defer stop()
			ready.Done()
			<-release
			start := time.Now()
			rows[u], errs[u] = runScript(cctx, engines[u], table, scripts[u])
			out.users[u] = time.Since(start)
			if errs[u] != nil {
				errs[u] = fmt.Errorf("user %d: %w", u+1, errs[u])
			}
		})
	}
	ready.Wait()
	start := time.Now()
	close(release)
	done.Wait()
	out.wall = time.Since(start)
	if ctx.Err() != nil {
		return out, interrupted(ctx)
	}
	for _, n := range rows {
		out.rows += n
	}
	return out, errors.Join(errs...)
}
