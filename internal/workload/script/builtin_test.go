package script

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// checkBuiltins runs pgbench's own tpcb-like (weight 3) and select-only
// (weight 1) on two clients of their own sessions, under each protocol,
// and checks that the balances add up and that each committed tpcb-like
// transaction left one history row.
func checkBuiltins(t *testing.T, ctx context.Context, open func() dbms.Engine, iso dbms.Isolation) {
	e := open()
	const accounts, clients, perClient = 1000, 2, 25
	for _, proto := range []Protocol{Simple, Extended, Prepared} {
		t.Run(proto.String(), func(t *testing.T) {
			createPgbench(t, ctx, e, accounts)
			p := mustProgram(t, Options{Protocol: proto, MaxTries: 100, Scale: 1, RandomSeed: 7, Isolation: iso},
				builtin(t, "tpcb-like@3"), builtin(t, "select-only@1"))
			var rec counter
			results := run(t, ctx, p, clients, perClient, open, &rec)
			var tpcb, sel, retries int64
			for _, rs := range results {
				for _, r := range rs {
					if r.Err != nil {
						t.Fatalf("script %d failed (%s): %v", r.Script, r.Class, r.Err)
					}
					retries += int64(r.Retries)
					if r.Script == 0 {
						tpcb++
					} else {
						sel++
					}
				}
			}
			if tpcb == 0 || sel == 0 {
				t.Fatalf("tpcb-like ran %d times, select-only %d: both should have run in %d", tpcb, sel, clients*perClient)
			}
			checkTPCB(t, ctx, e, accounts, tpcb)
			// tpcb-like's END (command 10) ran once per try; select-only's
			// SELECT once per transaction.
			if got := int64(rec.get(0, 10)); got != tpcb {
				t.Errorf("END recorded %d times, want %d", got, tpcb)
			}
			if got := int64(rec.get(1, 1)); got != sel {
				t.Errorf("select-only's SELECT recorded %d times, want %d", got, sel)
			}
			t.Logf("%s: %d tpcb-like, %d select-only, %d retries", proto, tpcb, sel, retries)
		})
	}
}

func TestBuiltinsSQLite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := "sqlite:" + filepath.Join(t.TempDir(), "b.db")
	checkBuiltins(t, ctx, func() dbms.Engine { return openURL(t, ctx, url) }, dbms.RepeatableRead)
}

func TestBuiltinsDuckDB(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := "duckdb:" + filepath.Join(t.TempDir(), "b.duckdb")
	checkBuiltins(t, ctx, func() dbms.Engine { return openURL(t, ctx, url) }, dbms.RepeatableRead)
}
