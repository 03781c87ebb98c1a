package script

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

type discard struct{}

func (discard) Command(int, int, time.Duration) {}

// TestRunAllocations holds the hot path's cost: under the prepared
// protocol on SQLite (the fast path of prepared driver statements) a
// select-only transaction allocates next to nothing, and recording the
// commands' times allocates nothing at all.
func TestRunAllocations(t *testing.T) {
	ctx := context.Background()
	e := openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db"))
	createPgbench(t, ctx, e, 1000)
	p := mustProgram(t, Options{Protocol: Prepared, Scale: 1}, builtin(t, "select-only"))
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	without := testing.AllocsPerRun(200, func() { c.Run(ctx, nil) })
	with := testing.AllocsPerRun(200, func() { c.Run(ctx, discard{}) })
	if with != without {
		t.Errorf("%.1f allocations a transaction with a recorder, %.1f without: recording allocates", with, without)
	}
	// The aid bound as an argument (an int64 in an interface) is the one
	// allocation left; the driver's statement may add one.
	if with > 2 {
		t.Errorf("%.1f allocations a select-only transaction, want at most 2", with)
	}
}
