package nodes

import (
	"context"
	"encoding/json"
	"sync"
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

// TestTypesProgressFromAgents: while a cycle runs on two agents, the
// master's Progress carries each type's commits from their heartbeats,
// named as the master's Config names them, never more than the cycle's
// final count of the type.
func TestTypesProgressFromAgents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testDB(t)
	m := newTestMaster(t, 2)
	errs := startAgents(t, ctx, m.URL, "test", "a", "b")
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []driver.Progress
	// Several heartbeats (one a second) fall inside a cycle of 3 s.
	cfg := driver.Config{Threads: 2, Cycles: 1, Duration: 3 * time.Second, Seed: 1, Types: []string{"even", "odd"},
		Progress: func(p driver.Progress) { mu.Lock(); got = append(got, p); mu.Unlock() }}
	out, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	closeAgents(t, m, errs, 2)
	final := out.Cycles[0].Types
	told := 0
	mu.Lock()
	defer mu.Unlock()
	for i, p := range got {
		if len(p.Types) != 2 || p.Types[0].Name != "even" || p.Types[1].Name != "odd" {
			t.Fatalf("progress %d: types %+v", i, p.Types)
		}
		for k, ty := range p.Types {
			if ty.Committed > final[k].Committed || ty.TPS < 0 {
				t.Errorf("progress %d type %s: %d committed at %.0f tps, the cycle's final %d", i, ty.Name, ty.Committed, ty.TPS, final[k].Committed)
			}
		}
		if p.Types[0].Committed > 0 && p.Types[1].Committed > 0 {
			told++
		}
	}
	if told == 0 {
		t.Errorf("no progress with both types' commits in %d calls", len(got))
	}
}
