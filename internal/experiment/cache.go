package experiment

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// coldCache empties what can be emptied before a cold execution: the OS page
// cache (root only) and the engine's own cache where the adapter can.
func coldCache(ctx context.Context, e dbms.Engine, restart func(context.Context) error) (done, notDone []string, err error) {
	syscall.Sync()
	droppedOS := false
	if os.Geteuid() != 0 {
		notDone = append(notDone, "OS page cache (dropping it needs root)")
	} else if werr := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0); werr != nil {
		notDone = append(notDone, fmt.Sprintf("OS page cache (/proc/sys/vm/drop_caches: %v)", werr))
	} else {
		done = append(done, "OS page cache (drop_caches=3 after sync)")
		droppedOS = true
	}
	if restart != nil {
		// A private server dbgauge manages: a restart empties its cache.
		if err := restartServer(ctx, e, restart); err != nil {
			return done, notDone, err
		}
		return append(done, e.Name()+" cache (server restarted)"), notDone, nil
	}
	if f, ok := e.(dbms.CacheFlusher); ok {
		d, nd, ferr := f.FlushCache(ctx)
		if ferr != nil {
			return done, notDone, fmt.Errorf("flush %s cache: %w", e.Name(), ferr)
		}
		done = append(done, d...)
		for _, x := range nd {
			// An adapter says the OS page cache is beyond it; dbgauge
			// dropped it above when it could.
			if !(droppedOS && strings.Contains(x, "page cache")) {
				notDone = append(notDone, x)
			}
		}
	} else {
		notDone = append(notDone, e.Name()+" cache (the engine offers no way to empty it)")
	}
	return done, notDone, nil
}

// mergeFlush adds one cold step's outcome to a run's record; every part
// that could not be emptied is warned about once.
func mergeFlush(cf *results.CacheFlush, done, notDone []string, warn func(string)) *results.CacheFlush {
	if cf == nil {
		cf = &results.CacheFlush{}
	}
	for _, d := range done {
		if !slices.Contains(cf.Done, d) {
			cf.Done = append(cf.Done, d)
		}
	}
	for _, nd := range notDone {
		if !slices.Contains(cf.NotDone, nd) {
			cf.NotDone = append(cf.NotDone, nd)
			warn("cold cache: could not empty " + nd)
		}
	}
	return cf
}

// restartServer restarts the private server of e (restart is the
// instance's own) and reconnects e's session to it.
func restartServer(ctx context.Context, e dbms.Engine, restart func(context.Context) error) error {
	rc, ok := e.(dbms.Reconnecter)
	if !ok {
		return fmt.Errorf("%s sessions cannot reconnect after a restart", e.Name())
	}
	if err := restart(ctx); err != nil {
		return fmt.Errorf("restart %s: %w", e.Name(), err)
	}
	if err := rc.Reconnect(ctx); err != nil {
		return fmt.Errorf("reconnect after restarting %s: %w", e.Name(), err)
	}
	return nil
}
