package script

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// retryScript reads the row under snapshot isolation, lets another session
// change it (the hook command), then updates it: a serialization failure
// on PostgreSQL, a transaction conflict on DuckDB.
const retryScript = `\set n :n + 1
\set r random(1, 1000000000)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT v FROM rt WHERE id = 1 \gset old_
\set hook 1
UPDATE rt SET v = v + 1 WHERE id = 1;
END;
`

const (
	retrySetR   = 1
	retryHook   = 4
	retryUpdate = 5
)

// hooked is a Recorder that, after the hook command, has another session
// update the row (on the first try only, or on every try), and notes the
// value :r had on each try.
type hooked struct {
	t      *testing.T
	ctx    context.Context
	other  dbms.Engine
	c      *Client
	always bool
	hooks  int
	rs     []string
	// retried counts Retry calls by command.
	retried map[int]int
}

func (h *hooked) Retry(script, command int) {
	if h.retried == nil {
		h.retried = map[int]int{}
	}
	h.retried[command]++
}

func (h *hooked) Command(script, command int, elapsed time.Duration) {
	switch command {
	case retrySetR:
		r, _ := h.c.Variables().Text("r")
		h.rs = append(h.rs, r)
	case retryHook:
		if h.hooks == 0 || h.always {
			if _, err := h.other.Exec(h.ctx, "UPDATE rt SET v = v + 100 WHERE id = 1"); err != nil {
				h.t.Errorf("the other session's update: %v", err)
			}
		}
		h.hooks++
	}
}

// checkRetry provokes the failure once (retried, then committed) and on
// every try (failed after MaxTries), and checks the retry counts, that the
// variables and the random state were restored for each try, and the row.
func checkRetry(t *testing.T, ctx context.Context, open func() dbms.Engine) {
	e, other := open(), open()
	for _, tc := range []struct {
		name    string
		always  bool
		tries   int
		retries int
		failed  bool
		v       string
	}{
		{"once", false, 3, 1, false, "101"},
		{"always", true, 2, 1, true, "200"},
		{"no retry", false, 1, 0, true, "100"},
		{"out of time", true, 100, 0, true, "100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := e.DropTable(ctx, "rt"); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"CREATE TABLE rt (id INTEGER, v INTEGER)", "INSERT INTO rt VALUES (1, 0)"} {
				if _, err := e.Exec(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			var limit time.Duration
			if tc.name == "out of time" {
				limit = time.Nanosecond // over before the first try ends
			}
			p := mustProgram(t, Options{Protocol: Extended, MaxTries: tc.tries, LatencyLimit: limit, RandomSeed: 11, Defines: []Define{{"n", "0"}}},
				scriptOf(t, "retry.sql", retryScript))
			c := p.Clients(1)[0]
			if err := c.Setup(ctx, e); err != nil {
				t.Fatal(err)
			}
			rec := &hooked{t: t, ctx: ctx, other: other, c: c, always: tc.always}
			r := c.Run(ctx, rec)
			if r.Retries != tc.retries || (r.Err != nil) != tc.failed {
				t.Fatalf("retries %d, error %v; want %d retries, failed %v", r.Retries, r.Err, tc.retries, tc.failed)
			}
			if tc.failed && (!r.Class.Retryable() || r.Command != retryUpdate) {
				t.Errorf("failed with class %s at command %d, want a retryable class at %d: %v", r.Class, r.Command, retryUpdate, r.Err)
			}
			if rec.retried[retryUpdate] != tc.retries || len(rec.retried) > 1 {
				t.Errorf("retries recorded %v, want %d at command %d", rec.retried, tc.retries, retryUpdate)
			}
			if len(rec.rs) != tc.retries+1 {
				t.Fatalf(":r noted %d times, want one per try", len(rec.rs))
			}
			for _, r := range rec.rs[1:] {
				if r != rec.rs[0] {
					t.Errorf(":r was %v on the tries: the random state was not restored", rec.rs)
				}
			}
			want := "1"
			if n, _ := c.Variables().Text("n"); n != want {
				t.Errorf(":n = %s after %d tries, want %s (the variables restored for each)", n, tc.retries+1, want)
			}
			if v, err := dbms.FirstValue(ctx, e, "SELECT v FROM rt WHERE id = 1"); err != nil || v != tc.v {
				t.Errorf("v = %s (%v), want %s", v, err, tc.v)
			}
			if e.(dbms.TextQuerier).InTransaction() {
				t.Error("a transaction is still open")
			}
		})
	}
}

func TestRetryDuckDB(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url := "duckdb:" + filepath.Join(t.TempDir(), "r.duckdb")
	checkRetry(t, ctx, func() dbms.Engine { return openURL(t, ctx, url) })
}
