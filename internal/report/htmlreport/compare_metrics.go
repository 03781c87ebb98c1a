package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// cmpMetric is one number a run measured, with the repetitions behind it,
// named so that the same number of another run of the experiment can be
// found: the unit of a comparison.
type cmpMetric struct {
	key    string // identity across runs of one experiment
	label  string // what the page calls it: "rate at scale 10"
	short  string // a diagram's tick label; "" means label
	unit   string
	better stats.Better
	// samples are the repetitions; one value when only one was measured
	// (a load, a storage test), none when the run has no valid value
	// (then missing says why: "n/a", "MISMATCH", "ERROR", ...).
	samples []float64
	missing string
	// line places the metric on an overlaid line chart (nil: none): the
	// chart, the curve within one run, and its x.
	line *cmpLinePlace
}

// cmpLineChart is one overlaid chart of an experiment's metrics against its
// variable (users, size, p, cardinality).
type cmpLineChart struct {
	name, title, xLabel, yLabel, reading string
}

// cmpLinePlace is a metric's place on a line chart.
type cmpLinePlace struct {
	chart *cmpLineChart
	curve string // "" when a run has one curve on the chart
	x     float64
}

// cmpMetricsOf are the metrics of each run (same order as runs). Everything
// is read from the runs' results; dsbench's per-cycle latencies from its
// HdrHistogram logs.
func cmpMetricsOf(runs []*Run) [][]cmpMetric {
	if runs[0].Experiment == "wisconsin" {
		return wisconsinMetrics(runs) // lined up across the runs' sizes
	}
	out := make([][]cmpMetric, len(runs))
	if of, ok := cmpMetricsOfRun[runs[0].Experiment]; ok {
		for i, r := range runs {
			out[i] = of(r)
		}
	}
	return out
}

// cmpMetricsOfRun are the metrics of one run, per experiment.
var cmpMetricsOfRun = map[string]func(*Run) []cmpMetric{
	"dsbench":   dsbenchMetrics,
	"multiuser": multiuserMetrics,
	"sizesweep": sizesweepMetrics,
	"speedup":   speedupMetrics,
	"qac":       qacMetrics,
	"abtest":    abtestMetrics,
	"storage":   storageMetrics,
}

// cmpKey builds a metric key from its parts.
func cmpKey(format string, a ...any) string { return fmt.Sprintf(format, a...) }
