package driver

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TypeFigures converts the per-type counts and histograms into the rows
// results.json stores (nil when there are none).
func (t *Totals) TypeFigures() []results.TypeFigures {
	var out []results.TypeFigures
	for _, ty := range t.Types {
		f := results.TypeFigures{Name: ty.Name, Count: ty.Committed, Failed: ty.Failed, Errors: ty.Errors.Map(),
			Retries: ty.Retries, Percentiles: percentiles(ty.Residence)}
		for _, s := range ty.Statements {
			var n int64
			if s.Residence != nil {
				n = s.Residence.TotalCount()
			}
			f.Statements = append(f.Statements, results.StatementFigures{Name: s.Name, Count: n, Percentiles: percentiles(s.Residence)})
		}
		out = append(out, f)
	}
	return out
}

// TypeCycles are the completed cycles' per-type figures (nil when there
// are none).
func (r *Result) TypeCycles() []results.TypeCycle {
	var out []results.TypeCycle
	for _, c := range r.Cycles {
		if f := c.TypeFigures(); f != nil {
			out = append(out, results.TypeCycle{Cycle: c.Cycle, Types: f})
		}
	}
	return out
}

// percentiles reads the stored percentiles of h (microseconds) in
// milliseconds; all 0 for no histogram or an empty one.
func percentiles(h *hdr.Histogram) results.Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return results.Percentiles{}
	}
	ms := func(us int64) float64 { return float64(us) / 1e3 }
	q := func(p float64) float64 { return ms(h.ValueAtQuantile(p)) }
	return results.Percentiles{P50MS: q(50), P90MS: q(90), P95MS: q(95), P99MS: q(99), P999MS: q(99.9), MaxMS: ms(h.Max())}
}

// TypeProgress is the finished cycle's commits per type with their rate
// over the demanded duration, as Progress gives them while it runs (nil
// for fewer than two types).
func (c *CycleResult) TypeProgress() []TypeProgress {
	if len(c.Types) < 2 {
		return nil
	}
	out := make([]TypeProgress, len(c.Types))
	for i, t := range c.Types {
		out[i] = TypeProgress{Name: t.Name, Committed: t.Committed, TPS: float64(t.Committed) / c.Demanded.Seconds()}
	}
	return out
}

// ResidencePercentiles are the percentiles of the committed transactions'
// residence times, in milliseconds.
func (t *Totals) ResidencePercentiles() results.Percentiles { return percentiles(t.Residence) }
