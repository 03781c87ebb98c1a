package results

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTypesRoundTrip: a sweep's per-type figures, written as a run writes
// results.json, read back equal, under the field names the contract
// gives; a results.json from before them still loads, without types.
func TestTypesRoundTrip(t *testing.T) {
	r, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := Percentiles{P50MS: 1.5, P90MS: 2, P95MS: 2.5, P99MS: 4, P999MS: 9.5, MaxMS: 12}
	types := []TypeFigures{
		{Name: "new_order", Count: 450, Failed: 3, Errors: map[string]int64{"serialization": 2, "deadlock": 1}, Retries: 3, Percentiles: p,
			Statements: []StatementFigures{{Name: "select stock", Count: 451, Percentiles: p}}},
		{Name: "payment", Count: 430, Percentiles: p},
	}
	in := &DSBenchResults{Header: Header{Experiment: "dsbench", Complete: true},
		Scales: []ScaleResult{{Scale: 1, Types: types, TypeCycles: []TypeCycle{{Cycle: 1, Types: types}}}}}
	if err := r.WriteJSON(ResultsFile, in); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(r.Path(ResultsFile))
	for _, key := range []string{`"types"`, `"type_cycles"`, `"count"`, `"p99_9_ms"`, `"max_ms"`, `"statements"`, `"retries"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("results.json lacks %s", key)
		}
	}
	s, err := ReadRun(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Results.(*DSBenchResults).Scales[0]
	if !reflect.DeepEqual(got.Types, types) || !reflect.DeepEqual(got.TypeCycles[0].Types, types) {
		t.Errorf("read back %+v, want %+v", got.Types, types)
	}

	old, err := ReadRun(filepath.Join("..", "report", "htmlreport", "testdata", "runs", "dsbench"))
	if err != nil {
		t.Fatal(err)
	}
	if sc := old.Results.(*DSBenchResults).Scales; len(sc) == 0 || sc[0].Types != nil || sc[0].TypeCycles != nil {
		t.Errorf("a results.json without types: %d scales, types %v", len(sc), sc)
	}
}
