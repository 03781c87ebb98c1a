package firebird

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// TestProcedureAtomicUnderConflicts is the TPC-B procedure form as dsbench
// runs it. Firebird 3.0.11 loses committed transactions in PSQL under update
// conflicts while an old transaction holds back garbage collection
// (scripts/repro/firebird-psql-atomicity.py hold), and dbgauge's sessions
// held one each: the driver ended every statement outside a transaction with
// COMMIT RETAINING, so the autocommit transaction of the session's first
// such statement (the attachment id at open) stayed open for the session's
// life, and BeginTx replaced it without ending it. NoTransactionLeftOpen
// failed at once with that driver.
//
// Load is the soak test of the procedure form (dbms.ProcedureLanguage's
// defect): it runs only when FBPROC_DURATION is set (FBPROC_DURATION=6m:
// about 20,000-50,000 commits here). It broke now and then both before and
// after the driver fix: a call that failed with an update conflict at the
// branch update had its teller update committed.
func TestProcedureAtomicUnderConflicts(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	t.Run("NoTransactionLeftOpen", func(t *testing.T) { testNoTransactionLeftOpen(t, inst) })
	t.Run("Load", func(t *testing.T) { testProcedureLoad(t, inst) })
}

// testNoTransactionLeftOpen: after statements outside a transaction and a
// transaction of its own, a session holds no transaction open, and the
// database's oldest active transaction is the observer's own.
func testNoTransactionLeftOpen(t *testing.T, inst *server.Instance) {
	ctx := ctxT(t)
	obs, s := openURL(t, inst.URL), openURL(t, inst.URL)
	if _, err := s.QueryValue(ctx, "SELECT COUNT(*) FROM RDB$RELATIONS"); err != nil {
		t.Fatal(err)
	}
	if err := s.Begin(ctx, dbms.RepeatableRead); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QueryInt(ctx, "SELECT COUNT(*) FROM RDB$DATABASE"); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, "SELECT 1 FROM RDB$DATABASE"); err != nil {
		t.Fatal(err)
	}
	for _, e := range []*Engine{s, obs} {
		if _, err := e.QueryRows(ctx, "SELECT 1 FROM RDB$DATABASE"); err != nil {
			t.Fatal(err)
		}
	}
	// Each autocommit statement is a transaction of its own, so the
	// observer's query sees a fresh monitoring snapshot.
	rows, err := obs.QueryRows(ctx, "SELECT MON$ATTACHMENT_ID, MON$TRANSACTION_ID FROM MON$TRANSACTIONS WHERE MON$ATTACHMENT_ID IN ("+
		strconv.FormatInt(s.attachment.Load(), 10)+", "+strconv.FormatInt(obs.attachment.Load(), 10)+")")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0][0] != strconv.FormatInt(obs.attachment.Load(), 10) {
		t.Errorf("open transactions (attachment, transaction) %v; want only the observer's own query's", rows)
	}
}

// testProcedureLoad runs four sessions on one branch in SNAPSHOT WAIT
// (update conflicts all the time), records every transaction the client saw
// commit, and compares the database with them row by row. It runs for
// FBPROC_DURATION.
func testProcedureLoad(t *testing.T, inst *server.Instance) {
	duration, err := time.ParseDuration(os.Getenv("FBPROC_DURATION"))
	if err != nil {
		t.Skip("the soak test of Firebird's procedure form runs with FBPROC_DURATION set (say 6m)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), duration+10*time.Minute)
	defer cancel()
	e := openURL(t, inst.URL)
	proc := setupTPCB(t, ctx, e)

	const clients = 4
	type outcome struct {
		in  tpcb.Inputs
		err string
	}
	var (
		wg    sync.WaitGroup
		trace = make([][]outcome, clients)
	)
	end := time.Now().Add(duration)
	for c := range clients {
		s := openURL(t, inst.URL)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			var in tpcb.Inputs
			for time.Now().Before(end) && ctx.Err() == nil {
				tpcb.Draw(rng, 1, &in)
				err := tpcb.CallProcedure(ctx, s, proc, dbms.RepeatableRead, &in)
				o := outcome{in: in}
				if err != nil {
					s.Rollback(ctx)
					o.err = err.Error()
				}
				trace[c] = append(trace[c], o)
			}
		}()
	}
	wg.Wait()

	digits := regexp.MustCompile(`[0-9]+`)
	var committed []tpcb.Inputs
	failed := map[string]int{}
	for _, tr := range trace {
		for _, o := range tr {
			if o.err == "" {
				committed = append(committed, o.in)
			} else {
				failed[digits.ReplaceAllString(strings.Join(strings.Fields(o.err), " "), "N")]++
			}
		}
	}
	t.Logf("%d committed in %v; failed: %v", len(committed), duration, failed)
	if len(committed) == 0 {
		t.Fatal("nothing committed")
	}

	// The history against what committed, row by row.
	key := func(in tpcb.Inputs) string { return fmt.Sprintf("%d/%d/%d/%d", in.Tid, in.Bid, in.Aid, in.Delta) }
	want := map[string]int{}
	tellers := map[string]int64{}
	var total int64
	for _, in := range committed {
		want[key(in)]++
		tellers[strconv.FormatInt(in.Tid, 10)] += in.Delta
		total += in.Delta
	}
	rows, err := e.QueryRows(ctx, "SELECT tid, bid, aid, delta FROM "+tpcb.History)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rows {
		got[strings.Join(r, "/")]++
	}
	var diff []string
	for k, n := range want {
		if got[k] != n {
			diff = append(diff, fmt.Sprintf("history %s: %d rows, committed %d times", k, got[k], n))
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, fmt.Sprintf("history %s: %d rows, never committed", k, n))
		}
	}
	// Each teller against the deltas committed on it; an offset equal to
	// a failed transaction's delta is named.
	rows, err = e.QueryRows(ctx, "SELECT tid, tbalance FROM "+tpcb.Tellers)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		bal, _ := strconv.ParseInt(r[1], 10, 64)
		off := bal - tellers[r[0]]
		if off == 0 {
			continue
		}
		d := fmt.Sprintf("teller %s: balance %d, committed deltas %d (off by %d)", r[0], bal, tellers[r[0]], off)
		for _, tr := range trace {
			for _, o := range tr {
				if o.in.Delta == off || o.in.Delta == -off {
					d += fmt.Sprintf("; %+v err=%q", o.in, strings.Join(strings.Fields(o.err), " "))
				}
			}
		}
		diff = append(diff, d)
	}
	b, err := tpcb.ReadBalances(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	bad := b.Check(0, int64(len(committed)))
	if b.HistoryDelta != total {
		bad = append(bad, fmt.Sprintf("sum(delta) = %d, committed deltas sum to %d", b.HistoryDelta, total))
	}
	slices.Sort(diff)
	if len(bad) != 0 || len(diff) != 0 {
		t.Errorf("after %d committed transactions: %v; %v", len(committed), bad, diff)
	}
}
