package experiment

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/orders"
)

// TestOrdersProcedureForm: the order-entry workload's procedure form
// under the sweep, on each engine that has procedures: one warehouse
// populated (its procedures made after the load), two short cycles of
// four terminals calling them, retrying deadlocks and serialization
// failures; every type ran (no statement timed: they run in the
// server), the sweep's checks found the scale
// consistent, and the conditions a run keeps (all but 11) hold on the
// database after it. The statements form stays the workload's default
// (TPC-B's procedure form stays TPC-B's, where the engine has no defect).
func TestOrdersProcedureForm(t *testing.T) {
	for _, eng := range []string{"postgres", "mariadb", "firebird"} {
		t.Run(eng, func(t *testing.T) {
			inst := servertest.Start(t, eng, server.Options{})
			ctx := context.Background()
			e, err := dbms.Open(ctx, inst.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			w, err := workload.New(orders.Name)
			if err != nil {
				t.Fatal(err)
			}
			if p := (DSBenchPlan{}); resolveForm(&p, w, e) != nil || p.Form != formStatements {
				t.Errorf("default form of the orders workload: %q, want %q", p.Form, formStatements)
			}
			// TPC-B's procedure is its default where the engine has no
			// defect (Firebird's: tpcb.Procedure.Defect).
			tw, err := workload.New("tpcb")
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"firebird": formStatements}[eng]
			if want == "" {
				want = formProcedure
			}
			if p := (DSBenchPlan{}); resolveForm(&p, tw, e) != nil || p.Form != want {
				t.Errorf("default form of the tpcb workload: %q, want %q", p.Form, want)
			}
			plan := DSBenchPlan{Mode: orders.Name, Form: formProcedure, Scales: []int64{1}, Cycles: 2, Duration: 2 * time.Second,
				Nodes: 1, Threads: 4, Conns: 1, Retry: true, Prepare: true, Confidence: []float64{95}, Seed: 1}
			res, err := RunDSBench(ctx, DSBenchSetup{DB: inst.URL, Dir: filepath.Join(t.TempDir(), "run"), Version: "test"}, plan, progress.New(nil))
			if err != nil {
				t.Fatal(err)
			}
			if res.Form != formProcedure || len(res.Scales) != 1 {
				t.Fatalf("form %q, %d scales", res.Form, len(res.Scales))
			}
			s := res.Scales[0]
			if !s.Consistent {
				t.Errorf("inconsistent: %v %s", s.Inconsistency, s.Unchecked)
			}
			if len(s.Types) != 5 {
				t.Fatalf("types %+v", s.Types)
			}
			for _, ty := range s.Types {
				if ty.Count == 0 {
					t.Errorf("no %s committed: %+v", ty.Name, s.Types)
				}
				if len(ty.Statements) != 0 {
					t.Errorf("%s: statements %+v timed; the procedure form times none", ty.Name, ty.Statements)
				}
			}
			conditionsHold(t, ctx, e, orders.AfterRunConditions)
			t.Logf("%d transactions, %d failed trials %v", s.Transactions, s.Failed, s.Errors)
		})
	}
}
