package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
)

// cancelOn is a progress writer that cancels a run after a delay once a
// line contains text: the signal lands in the work that follows the line.
type cancelOn struct {
	mu     sync.Mutex
	text   string
	delay  time.Duration
	cancel context.CancelFunc
	fired  bool
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fired && strings.Contains(string(p), c.text) {
		c.fired = true
		time.AfterFunc(c.delay, c.cancel)
	}
	return len(p), nil
}

// TestQACInterruptedInLastQE: Ctrl-C during the last QE of a Q@C (a
// self-join SQLite runs as a nested loop, long enough for the
// cancellation to land in it) keeps no Q@C: its QEs are not all there and
// the last was cut short. The run is incomplete and says it was
// interrupted, and the journal marks the QE.
func TestQACInterruptedInLastQE(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the timing protocol reads /proc and taskstats as root")
	}
	tmp := t.TempDir()
	url := dbms.DefaultURL(filepath.Join(tmp, "user.db"))
	ctx := context.Background()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE u (k INTEGER)",
		"WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 3999) INSERT INTO u SELECT k FROM n",
	} {
		if _, err := e.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	const qes = 6
	w := &cancelOn{text: fmt.Sprintf("QE %2d/%d", qes-1, qes), delay: 100 * time.Millisecond, cancel: cancel}
	dir := filepath.Join(tmp, "run")
	plan := QACPlan{SQL: "SELECT a.k FROM {table} a, {table} b WHERE a.k * b.k = -1", Table: "u", Key: "k",
		Cardinalities: []int64{4000}, QEs: qes, MaxRestarts: 1, Seed: 1}
	res, err := RunQAC(runCtx, Setup{DB: url, Dir: dir, Version: "test"}, plan, progress.New(w))
	if !w.fired {
		t.Fatalf("the run ended before QE %d (err %v)", qes-1, err)
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("err %v: want the interruption", err)
	}
	if res.Complete || len(res.QaCs) != 0 {
		t.Errorf("complete %v, %d Q@Cs kept: want an incomplete run with no Q@C", res.Complete, len(res.QaCs))
	}
	j, err := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), "interrupted") {
		t.Errorf("the journal does not mark the interrupted QE")
	}
}
