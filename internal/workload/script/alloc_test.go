package script

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

type discard struct{}

func (discard) Command(int, int, time.Duration) {}

// TestRunAllocations holds the hot path's cost: a script of meta-commands
// only (its \set, \if and the recording of every command's time) allocates
// nothing a transaction; under the prepared protocol on SQLite (the fast
// path of prepared driver statements) a select-only transaction allocates
// next to nothing.
func TestRunAllocations(t *testing.T) {
	ctx := context.Background()
	e := openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db"))
	meta := mustProgram(t, Options{Protocol: Prepared}, scriptOf(t, "meta.sql", "\\set a random(1, 1000000)\n\\if :a > 10\n\\set b :a * 2\n\\else\n\\set b 0\n\\endif\n"))
	c := meta.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() { c.Run(ctx, discard{}) }); n != 0 {
		t.Errorf("%.1f allocations a transaction of meta-commands, want none", n)
	}

	createPgbench(t, ctx, e, 1000)
	p := mustProgram(t, Options{Protocol: Prepared, Scale: 1}, builtin(t, "select-only"))
	c = p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	// The aid bound as an argument (an int64 in an interface) is one
	// allocation; the driver's reading of the row may add one.
	if n := testing.AllocsPerRun(200, func() { c.Run(ctx, discard{}) }); n > 2 {
		t.Errorf("%.1f allocations a select-only transaction, want at most 2", n)
	}
}
