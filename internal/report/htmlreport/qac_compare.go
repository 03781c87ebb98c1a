package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a qac run.

// qacMetrics: per cardinality, the protocol's computed time over the QEs
// it kept (the tick-based time, or the fine one when the run measured
// with it); a Q@C the protocol did not retain has none.
func qacMetrics(r *Run) []Metric {
	q := r.qac()
	chart := &LineChart{Name: "compare_qac", Title: "computed time against cardinality (median; bars: fastest..slowest kept QE)",
		XLabel: "cardinality [tuples]", YLabel: "computed time [ms]",
		Reading: "The query's computed time (the query process's own CPU and I/O) against the cardinality, one curve per run."}
	var out []Metric
	for _, c := range q.QaCs {
		x := Metric{Key: cmpKey("qac|%d", c.Cardinality), Label: fmt.Sprintf("computed time at cardinality %d", c.Cardinality),
			Short: fmt.Sprint(c.Cardinality), Unit: "ms", Better: stats.SmallerIsBetter,
			Line: &LinePlace{Chart: chart, X: float64(c.Cardinality)}}
		if !c.Retained {
			// the protocol found this Q@C's times untrustworthy: so does
			// the comparison
			x.Missing = "dropped by the protocol"
			out = append(out, x)
			continue
		}
		for _, qe := range c.QEs {
			if qe.Dropped || qe.Error != "" {
				continue
			}
			v := qe.ComputedMS
			if q.Measure == "fine" {
				v = qe.FineMS
			}
			x.Samples = append(x.Samples, v)
		}
		if len(x.Samples) == 0 {
			x.Missing = "dropped"
		}
		out = append(out, x)
	}
	return out
}
