package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// qac on SQLite: the tables are cut to every cardinality with the exact
// selectivity, every QE is measured and analysed, and the run directory
// holds the tables, the paragraph and the diagram. How many QEs the
// protocol keeps depends on how busy the machine is (a busy one fails
// its checks and drops them all, rightly): the diagram is there either
// way, and qac.txt says when it shows every QE because none was kept.
func TestQACSQLite(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the timing protocol reads /proc and taskstats as root")
	}
	dir := filepath.Join(t.TempDir(), "run")
	plan := QACPlan{Wisconsin: 1, Cardinalities: []int64{10000, 20000, 40000}, QEs: 6, MaxRestarts: 1, Seed: 1}
	res, err := RunQAC(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.QaCs) != 3 || res.Protocol == nil {
		t.Fatalf("complete %v, %d Q@Cs, protocol %v", res.Complete, len(res.QaCs), res.Protocol)
	}
	for _, q := range res.QaCs {
		if len(q.QEs) != 6 || q.ExpectedRows != q.Cardinality/100 || q.Plan == "" {
			t.Errorf("cardinality %d: %d QEs, expected rows %d, plan %q", q.Cardinality, len(q.QEs), q.ExpectedRows, q.Plan)
		}
		for _, qe := range q.QEs {
			if qe.Rows != q.ExpectedRows || qe.MeasuredMS <= 0 {
				t.Errorf("cardinality %d QE %d: %d rows in %v ms", q.Cardinality, qe.Index, qe.Rows, qe.MeasuredMS)
			}
		}
		if q.AllMeasured.N != 6 || q.AllMeasured.MedianMS <= 0 {
			t.Errorf("cardinality %d: estimate over every QE %+v", q.Cardinality, q.AllMeasured)
		}
	}
	if !strings.Contains(res.QueryProcess, "inside dbgauge") {
		t.Errorf("query process %q", res.QueryProcess)
	}
	for _, f := range []string{"results.json", "qac.txt", "qac.csv", "protocol.txt", "qac.svg", "qac.png", "manifest.json", "journal.jsonl"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	kept := 0
	for _, q := range res.QaCs {
		kept += q.Measured.N
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "qac.txt"))
	if said := strings.Contains(string(txt), "the protocol kept no execution"); said != (kept == 0) {
		t.Errorf("%d QEs kept, and qac.txt says none was: %v\n%s", kept, said, txt)
	}
	t.Logf("%d of %d QEs kept by the protocol", kept, 3*6)
	p, _ := os.ReadFile(filepath.Join(dir, "protocol.txt"))
	if !strings.Contains(string(p), "TTPv2") || !strings.Contains(string(p), "dropped") {
		t.Errorf("protocol.txt:\n%s", p)
	}
}

// wisconsin --protocol ttp adds the computed time beside the elapsed time.
func TestWisconsinProtocol(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the timing protocol reads /proc and taskstats as root")
	}
	dir := filepath.Join(t.TempDir(), "run")
	plan := WisconsinPlan{Sizes: []int64{1000}, Reps: 6, Dests: []string{results.DestClient}, Queries: []int{1, 9}, Orgs: []w.Org{w.Heap}, Seed: 1, Protocol: true}
	res, err := RunWisconsin(context.Background(), Setup{Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, q := range res.Queries {
		if q.Status == results.StatusNotApplicable {
			continue
		}
		ran++
		if q.ComputedMS == nil || q.ProtocolRetained == nil || *q.ProtocolRetained && q.ComputedMS.N == 0 {
			t.Errorf("Q%d %s: computed %+v retained %v", q.Query, q.Organization, q.ComputedMS, q.ProtocolRetained)
		}
	}
	if ran == 0 || res.Protocol == nil || res.Protocol.Paragraph == "" {
		t.Fatalf("%d queries ran, protocol %+v", ran, res.Protocol)
	}
	tables, _ := os.ReadFile(filepath.Join(dir, "tables.txt"))
	if !strings.Contains(string(tables), "computed_ms") {
		t.Error("tables.txt has no computed_ms column")
	}
	if _, err := os.Stat(filepath.Join(dir, "protocol.txt")); err != nil {
		t.Error(err)
	}
}

func TestPlanShape(t *testing.T) {
	a := planShape("Seq Scan on qac_tenktup1_c200000\n  Filter: ((unique2 >= 1234) AND (unique2 <= 3233))\n", "qac_tenktup1_c200000")
	b := planShape("Seq Scan on tenktup1_n1000000\n  Filter: ((unique2 >= 77) AND (unique2 <= 10076))\n", "tenktup1_n1000000")
	if a != b || strings.Contains(a, "1234") || !strings.Contains(a, "{table}") {
		t.Errorf("shapes differ:\n%s\n%s", a, b)
	}
	fb := planShape(`Table "QAC_T_C10" Full Scan`, "qac_t_c10")
	if fb != `Table "{table}" Full Scan` {
		t.Errorf("Firebird's upper-case name: %s", fb)
	}
	if planShape("Index Scan using {table}_u2", "x") == planShape("Seq Scan", "x") {
		t.Error("different plans, same shape")
	}
}
