package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// Metric is one number a run measured, with the repetitions behind it,
// named so that the same number of another run of the experiment can be
// found: the unit of a comparison.
type Metric struct {
	Key    string // identity across runs of one experiment
	Label  string // what the page calls it: "rate at scale 10"
	Short  string // a diagram's tick label; "" means Label
	Unit   string
	Better stats.Better
	// Samples are the repetitions; one value when only one was measured
	// (a load, a storage test), none when the run has no valid value
	// (then Missing says why: "n/a", "MISMATCH", "ERROR", ...).
	Samples []float64
	Missing string
	// Line places the metric on an overlaid line chart (nil: none): the
	// chart, the curve within one run, and its x.
	Line *LinePlace
}

// LineChart is one overlaid chart of an experiment's metrics against its
// variable (users, size, p, cardinality).
type LineChart struct {
	Name, Title, XLabel, YLabel, Reading string
}

// LinePlace is a metric's place on a line chart.
type LinePlace struct {
	Chart *LineChart
	Curve string // "" when a run has one curve on the chart
	X     float64
}

// cmpMetricsOf are the metrics of each run (same order as runs). Everything
// is read from the runs' results; dsbench's per-cycle latencies from its
// HdrHistogram logs.
func cmpMetricsOf(runs []*Run) [][]Metric {
	k := pageKindOf(runs[0].Experiment)
	if k.RunsMetrics != nil {
		return k.RunsMetrics(runs) // lined up across the runs
	}
	out := make([][]Metric, len(runs))
	if k.Metrics != nil {
		for i, r := range runs {
			out[i] = k.Metrics(r)
		}
	}
	return out
}

// cmpKey builds a metric key from its parts.
func cmpKey(format string, a ...any) string { return fmt.Sprintf(format, a...) }
