package results

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// The A/B test as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "abtest",
		Title:    "A/B test",
		New:      func() Results { return &ABTestResults{} },
		Headline: func(r Results) Headline { return abtestHeadline(r.(*ABTestResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchABTest(w, r.(*ABTestResults)) },
		Units:    "pair",
	})
}

func abtestHeadline(r *ABTestResults) Headline {
	counts := map[string]int{}
	for _, q := range r.Queries {
		for _, run := range q.Runs {
			if run.Comparison != nil {
				counts[run.Comparison.Verdict]++
			}
		}
	}
	var parts []string
	for _, v := range []string{stats.VerdictBFaster, stats.VerdictAFaster, stats.VerdictNoDiff, stats.VerdictTooFew} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, counts[v]))
		}
	}
	if len(parts) == 0 {
		return Headline{Label: "verdicts", Text: "none"}
	}
	return Headline{Label: "verdicts", Text: strings.Join(parts, ", ")}
}

// ABTest: both variants' times of every pair, told apart by /variant=A
// and /variant=B (`benchstat -col /variant bench.txt` compares them; its
// test is unpaired, the run's own bootstrap verdict is paired).
func benchABTest(w *BenchWriter, r *ABTestResults) {
	for _, q := range r.Queries {
		for _, run := range q.Runs {
			if run.Status != StatusOK {
				continue
			}
			for _, v := range []struct {
				name string
				ms   []float64
			}{{"A", run.AMS}, {"B", run.BMS}} {
				name := []string{"ABTest", q.Label, "cache=" + run.Cache, "variant=" + v.name}
				for _, ms := range v.ms {
					w.Line(name, 1, NS(ms, "ns/op"))
				}
			}
		}
	}
}

// BenchConfig names both variants: the lines say which is which
// (/variant=A).
func (r *ABTestResults) BenchConfig() [][2]string {
	return [][2]string{{"variant-a", r.A.Engine + " " + r.A.EngineVersion}, {"variant-b", r.B.Engine + " " + r.B.EngineVersion}}
}

// EngineLabel is one engine when both variants ran the same, both
// otherwise.
func (r *ABTestResults) EngineLabel() (name, version string) {
	name, version = r.A.Engine, r.A.EngineVersion
	if r.B.Engine != r.A.Engine {
		name = r.A.Engine + " vs " + r.B.Engine
	}
	if r.B.EngineVersion != r.A.EngineVersion {
		version = r.A.EngineVersion + " vs " + r.B.EngineVersion
	}
	return name, version
}
