package experiment

import (
	"math"
	"slices"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// analyze turns the wall times into the table's points: the zero-user
// run's median is the harness's overhead, taken from every time when the
// plan says so.
func (r *multiuserRun) analyze() {
	times := r.times
	if i := slices.Index(r.plan.Users, 0); i >= 0 && len(r.times[i]) > 0 {
		oh := stats.Median(r.times[i])
		r.res.OverheadMS = &oh
		if r.plan.SubtractOverhead {
			times = make([][]float64, len(r.times))
			for j, ts := range r.times {
				times[j] = stats.SubtractOverhead(ts, oh)
			}
		}
	}
	ps, err := stats.MultiuserPoints(r.plan.Users, times, 0.95, stats.DefaultResamples, stats.DefaultBootstrapSeed)
	if err != nil {
		r.res.Warnings = append(r.res.Warnings, err.Error())
		return
	}
	r.res.Points = r.res.Points[:0]
	for i, p := range ps {
		if p.Times.N == 0 {
			continue
		}
		r.res.Points = append(r.res.Points, results.MultiuserPoint{
			Users: p.Users, N: p.Times.N, MedianMS: p.Times.Median, MinMS: p.Times.Min, MaxMS: p.Times.Max,
			CILowMS: p.CI.Low, CIHighMS: p.CI.High, RawMS: stats.Median(r.times[i]),
			PerUserMS: finite(p.PerUser), Thruput: finite(p.Thruput),
		})
	}
}

// finite is v, or nothing where v means nothing (JSON has no NaN).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *multiuserRun) write() error {
	return writeOutputs(r.run, r.res)
}
