package nodes

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
)

// nodeTypes is a node's cycle of two types, b with a timed statement:
// scale multiplies every count and time, so two nodes differ.
func nodeTypes(scale int64) driver.CycleResult {
	c := driver.CycleResult{Cycle: 1, Start: time.Unix(100, 0), Stopped: time.Unix(101, 0), Totals: driver.NewTotals(false)}
	var th driver.ThreadResult
	for i, name := range []string{"a", "b"} {
		t := driver.TypeResult{Name: name, Committed: scale * int64(10+i), Failed: scale, Retries: scale * int64(i), Residence: driver.NewHistogram()}
		t.Errors[dbms.Serialization] = scale
		for v := range t.Committed {
			t.Residence.RecordValue(1000*scale + v)
		}
		if name == "b" {
			s := driver.StatementResult{Name: "select", Residence: driver.NewHistogram()}
			s.Residence.RecordValue(500 * scale)
			t.Statements = append(t.Statements, s)
		}
		c.Types = append(c.Types, t)
		th.Committed += t.Committed
		th.Failed += t.Failed
		th.Retries += t.Retries
		th.Errors.Add(t.Errors)
		c.Residence.Merge(t.Residence)
	}
	c.AddThread(th) // the counts travel per thread
	return c
}

// TestTypesMergeExactly: two nodes' per-type figures go through the
// report as an agent sends it (JSON included) and are merged as the
// master merges a cycle: counts add up and histograms hold every value,
// the largest node's maximum included.
func TestTypesMergeExactly(t *testing.T) {
	merged := driver.CycleResult{Cycle: 1, Totals: driver.NewTotals(false)}
	for node, scale := range []int64{1, 3} {
		r, err := newReport("n", 1, nodeTypes(scale), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		nc, err := nodeCycle(&back, node, 0, time.Unix(100, 0), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		merged.Merge(nc)
	}
	want := map[string]struct{ committed, failed, retries, serialization, max int64 }{
		"a": {40, 4, 0, 4, 3000 + 29},
		"b": {44, 4, 4, 4, 3000 + 32},
	}
	if len(merged.Types) != 2 {
		t.Fatalf("%d types merged, want 2", len(merged.Types))
	}
	for _, ty := range merged.Types {
		w := want[ty.Name]
		got := [...]int64{ty.Committed, ty.Failed, ty.Retries, ty.Errors[dbms.Serialization], ty.Residence.TotalCount()}
		if got != [...]int64{w.committed, w.failed, w.retries, w.serialization, w.committed} {
			t.Errorf("type %s: committed, failed, retries, serialization, histogram = %v, want %v", ty.Name, got, w)
		}
		if !ty.Residence.ValuesAreEquivalent(ty.Residence.Max(), w.max) {
			t.Errorf("type %s: max %d, want %d", ty.Name, ty.Residence.Max(), w.max)
		}
	}
	if st := merged.Types[1].Statements; len(st) != 1 || st[0].Name != "select" || st[0].Residence.TotalCount() != 2 ||
		!st[0].Residence.ValuesAreEquivalent(st[0].Residence.Max(), 1500) {
		t.Errorf("b's statements %+v", st)
	}
	if merged.Committed != 84 || merged.Residence.TotalCount() != 84 {
		t.Errorf("merged totals: committed %d, histogram %d, want 84", merged.Committed, merged.Residence.TotalCount())
	}
}
