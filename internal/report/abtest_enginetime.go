package report

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// ABTestEngineTable compares the variants' engines' own times of the
// pairs as the main table compares the client's: medians, A / B with its
// interval, seed 004's effective rates and improvement, the verdict.
// Nil when the run recorded nothing about engine time.
func ABTestEngineTable(r *results.ABTestResults) *Table {
	if r.EngineTimeA == nil || r.EngineTimeB == nil {
		return nil
	}
	t := &Table{Title: []string{"A/B comparison of the engines' own times (engine time beside the client's: docs/wisconsin.md §8)",
		"A: " + engineTimingLine(r.EngineTimeA), "B: " + engineTimingLine(r.EngineTimeB)}}
	t.Rows = append(t.Rows, []string{"query", "cache", "a_engine_ms", "b_engine_ms", "factor", "ratio_ci", "rate_a", "rate_b", "improvement_pct", "verdict"})
	for _, q := range r.Queries {
		for _, c := range r.Caches {
			run := q.Run(c)
			if run == nil {
				continue
			}
			ec := run.EngineComparison
			if ec == nil {
				if run.EngineNone != "" {
					t.Notes = append(t.Notes, fmt.Sprintf("%s %s: no engine time: %s", q.Label, c, run.EngineNone))
				}
				continue
			}
			t.Rows = append(t.Rows, []string{q.Label, c, ms(ec.MedianA), ms(ec.MedianB), sigDigits(ec.Factor, 3),
				"[" + sigDigits(ec.Low, 3) + ", " + sigDigits(ec.High, 3) + "]", sigDigits(1000*ec.RateA, 4), sigDigits(1000*ec.RateB, 4),
				sigDigits(ec.ImprovementPct, 3), ec.Verdict})
		}
	}
	return t
}
