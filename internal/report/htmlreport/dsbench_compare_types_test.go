package htmlreport

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestCompareTypes: two sweeps of a workload of two types compare each
// type's rate and p99 per scale, the cycles' figures as repetitions
// (the type's commits over D, its p99 in the cycle); a run stored without
// per-cycle figures has its scale's one value.
func TestCompareTypes(t *testing.T) {
	dir := filepath.Join("testdata", "runs", "dsbench")
	var base results.DSBenchResults
	readResults(t, dir, &base)
	d := base.DurationS
	scale := base.Scales[0].Scale
	// withTypes is base with order and audit in three cycles: order's
	// counts and p99s as given, audit a third of order's.
	withTypes := func(counts []int64, p99s []float64, perCycle bool) string {
		r := base
		r.Scales = slices.Clone(base.Scales)
		s := &r.Scales[0]
		s.Cycles = []float64{1, 1, 1}
		var total int64
		s.TypeCycles = nil
		for i, n := range counts {
			s.TypeCycles = append(s.TypeCycles, results.TypeCycle{Cycle: i + 1, Types: []results.TypeFigures{
				{Name: "order", Count: n, Percentiles: results.Percentiles{P99MS: p99s[i]}},
				{Name: "audit", Count: n / 3, Percentiles: results.Percentiles{P99MS: 1}},
			}})
			total += n
		}
		s.Types = []results.TypeFigures{{Name: "order", Count: total, Percentiles: results.Percentiles{P99MS: 9}}, {Name: "audit", Count: total / 3}}
		if !perCycle {
			s.TypeCycles = nil
		}
		return withResults(t, dir, r)
	}
	a := loadRun(t, withTypes([]int64{300, 330, 360}, []float64{4, 5, 6}, true))
	b := loadRun(t, withTypes([]int64{600, 660, 720}, []float64{2, 2.5, 3}, true))
	c := newComparison([]*Run{a, b})
	rate := cmpRow(t, c, cmpKey("type_rate|order|%d", scale))
	if want := []float64{300 / d, 330 / d, 360 / d}; !slices.Equal(rate.per[0].Samples, want) {
		t.Errorf("order's rate repetitions %v, want %v", rate.per[0].Samples, want)
	}
	if v := rate.vs[0]; !cmpNear(v.Ratio, 2) {
		t.Errorf("order's rate ratio %v, want 2 (every cycle doubled)", v.Ratio)
	}
	p99 := cmpRow(t, c, cmpKey("type_p99|order|%d", scale))
	if v := p99.vs[0]; !slices.Equal(p99.per[1].Samples, []float64{2, 2.5, 3}) || !cmpNear(v.Ratio, 0.5) {
		t.Errorf("order's p99: %v against %v, ratio %v, want 0.5", p99.per[1].Samples, p99.per[0].Samples, v.Ratio)
	}
	cmpRow(t, c, cmpKey("type_rate|audit|%d", scale))

	old := loadRun(t, withTypes([]int64{300, 330, 360}, []float64{4, 5, 6}, false))
	c = newComparison([]*Run{old, b})
	if got, want := cmpRow(t, c, cmpKey("type_rate|order|%d", scale)).per[0].Samples, []float64{990 / (3 * d)}; !slices.Equal(got, want) {
		t.Errorf("without per-cycle figures: %v, want the scale's %v", got, want)
	}
	// A sweep of one type (the stored TPC-B run) has no such metric.
	for _, row := range newComparison([]*Run{loadRun(t, dir), loadRun(t, dir)}).rows {
		if strings.HasPrefix(row.Key, "type_") {
			t.Errorf("a sweep without types has the metric %s", row.Key)
		}
	}
}
