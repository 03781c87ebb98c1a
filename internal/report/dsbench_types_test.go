package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/golden"
	"github.com/dbgauge/dbgauge/internal/results"
)

// typesRun is a sweep of two scales of a workload of two types, one with
// two timed statements and failures of two classes, the other with a
// response-time limit it keeps at scale 1 and misses at scale 5.
func typesRun() *results.DSBenchResults {
	p := func(base float64) results.Percentiles {
		return results.Percentiles{P50MS: base, P90MS: 2 * base, P95MS: 2.5 * base, P99MS: 4 * base, P999MS: 9 * base, MaxMS: 12.25 * base}
	}
	r := &results.DSBenchResults{Header: results.Header{Experiment: "dsbench", Engine: "sqlite"},
		Workload: &results.WorkloadInfo{Title: "Orders", Types: []results.WorkloadType{{Name: "order", Weight: 3}, {Name: "audit", Weight: 1}}}}
	for _, x := range []int64{1, 5} {
		f := float64(x)
		r.Scales = append(r.Scales, results.ScaleResult{Scale: x, Transactions: 1000 * x, Types: []results.TypeFigures{
			{Name: "order", Count: 750 * x, Failed: 3 * x, Errors: map[string]int64{"serialization": 2 * x, "deadlock": x}, Retries: 3 * x, Percentiles: p(1.5 * f),
				Statements: []results.StatementFigures{
					{Name: "select_stock", Count: 753 * x, Percentiles: p(0.25 * f)},
					{Name: "insert_line", Count: 750 * x, Percentiles: p(0.5 * f)},
				}},
			{Name: "audit", Count: 250 * x, Percentiles: p(0.125 * f),
				Limit: &results.TypeLimit{Percentile: 90, MaxMS: 0.5, ValueMS: 0.25 * f, Pass: 0.25*f <= 0.5}},
		}})
	}
	return r
}

// TestDSBenchTypesGolden: the per-type table of typesRun, against its
// golden file (rewrite with -update).
func TestDSBenchTypesGolden(t *testing.T) {
	r := typesRun()
	if !DSBenchTypesShown(r) {
		t.Fatal("two types: want the table")
	}
	golden.Check(t, filepath.Join("testdata", "golden", "dsbench_per_type.txt.golden"), DSBenchTypes(r).TextBytes())
	if files := DSBenchTypeFiles(r); files["per_type.txt"] == nil || files["per_type.csv"] == nil {
		t.Error("the run's files lack per_type.txt or per_type.csv")
	}
}

// TestDSBenchTypesHidden: no table for a run without types (TPC-B today)
// or with one type and no statement, whose figures are results.txt's.
func TestDSBenchTypesHidden(t *testing.T) {
	one := typesRun()
	for i := range one.Scales {
		one.Scales[i].Types = one.Scales[i].Types[1:]
	}
	if DSBenchTypesShown(&results.DSBenchResults{Scales: []results.ScaleResult{{Scale: 1}}}) || DSBenchTypesShown(one) {
		t.Error("the per-type table shown for a run of one type without statements")
	}
	if DSBenchTypeFiles(one) != nil {
		t.Error("per_type files written for a run of one type without statements")
	}
}

// TestDSBenchTypesMix: the note on the mix passes commits that follow the
// weights (typesRun's 3:1 exactly) and names a scale whose do not.
func TestDSBenchTypesMix(t *testing.T) {
	r := typesRun()
	r.Scales[1].Types[0].Count, r.Scales[1].Types[1].Count = 3500, 1500
	notes := mixNotes(r)
	if len(notes) != 2 {
		t.Fatalf("notes %q, want one per scale", notes)
	}
	if !strings.Contains(notes[0], "scale 1:") || !strings.Contains(notes[0], "chi-square 0.00 with 1 degrees of freedom, p = 1: the commits follow the weights") {
		t.Errorf("scale 1: %s", notes[0])
	}
	if !strings.Contains(notes[1], "scale 5:") || !strings.Contains(notes[1], "do NOT follow") {
		t.Errorf("scale 5 (3500:1500 against 3:1): %s", notes[1])
	}
	r.Workload = nil
	if mixNotes(r) != nil {
		t.Error("a note without the weights")
	}
}
