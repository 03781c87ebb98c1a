package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a multiuser run.

// multiuserMetrics: per user count n > 0, the thruput n / T(n) in user
// scripts per second, one value per repetition (the wall time T(n) less
// the harness's overhead when the run subtracted it). The seed's relative
// thruput n x T(1)/T(n) compares a system with itself; between runs the
// absolute rate is what differs.
func multiuserMetrics(r *Run) []Metric {
	m := r.multiuser()
	chart := &LineChart{Name: "compare_multiuser", Title: "thruput against users (median; bars: slowest..fastest repetition)",
		XLabel: "users", YLabel: "thruput [user scripts / s]",
		Reading: "Thruput against the number of users started together, one curve per run: a curve above another served the same users faster."}
	times := map[int][]float64{}
	var order []int
	for _, run := range m.Runs {
		if _, ok := times[run.Users]; !ok {
			order = append(order, run.Users)
		}
		times[run.Users] = append(times[run.Users], run.WallMS)
	}
	var out []Metric
	for _, n := range order {
		if n <= 0 {
			continue // the harness alone: no thruput
		}
		ts := times[n]
		if m.SubtractOverhead && m.OverheadMS != nil {
			ts = stats.SubtractOverhead(ts, *m.OverheadMS)
		}
		x := Metric{Key: cmpKey("users|%d", n), Label: "thruput at " + countNoun(n, "user", "users"), Short: countNoun(n, "user", "users"),
			Unit: "scripts/s", Better: stats.BiggerIsBetter, Line: &LinePlace{Chart: chart, X: float64(n)}}
		for _, t := range ts {
			if t > 0 {
				x.Samples = append(x.Samples, float64(n)/(t/1000))
			}
		}
		if len(x.Samples) == 0 {
			x.Missing = "no time"
		}
		out = append(out, x)
	}
	return out
}
