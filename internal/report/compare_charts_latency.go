package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// CompareLatencyChart overlays the latency distributions of stress sweeps
// as percentile plots, HdrHistogram's usual view: latency against
// percentile, the percentile axis stretched as 1/(1-q) on a log scale so
// that 90%, 99%, 99.9% ... are evenly spaced and the tail gets the room.
// One panel per scale (a run missing a scale has no curve there), one
// colour per run (compare_latency.svg, compare_latency.png). The open
// loop's response times (from the intended start) are drawn when every run
// has them at that scale; otherwise the residence times. labels[i] names
// runs[i].
func CompareLatencyChart(labels []string, runs []*results.DSBenchResults) (map[string][]byte, error) {
	out := map[string][]byte{}
	var scales []int64
	for _, r := range runs {
		for _, s := range r.Scales {
			if !slices.Contains(scales, s.Scale) {
				scales = append(scales, s.Scale)
			}
		}
	}
	slices.Sort(scales)
	type panel struct {
		scale    int64
		what     string
		curves   []plotter.XYs // per run; nil where it has none
		maxX     float64
		ms       []float64
		hasCurve bool
	}
	var panels []panel
	for _, x := range scales {
		pn := panel{scale: x, what: "response", curves: make([]plotter.XYs, len(runs)), maxX: 1}
		for _, r := range runs {
			if s := scaleOf(r, x); s == nil || len(s.Response) == 0 {
				pn.what = "residence"
			}
		}
		for i, r := range runs {
			s := scaleOf(r, x)
			if s == nil {
				continue
			}
			pts := s.Residence
			if pn.what == "response" {
				pts = s.Response
			}
			for _, q := range pts {
				// q = 1 (the maximum) is infinitely far right on this axis
				if q.Quantile < 1 && q.Quantile >= 0 && q.Micros > 0 {
					x := 1 / (1 - q.Quantile)
					pn.curves[i] = append(pn.curves[i], plotter.XY{X: x, Y: q.Micros / 1000})
					pn.maxX = math.Max(pn.maxX, x)
					pn.ms = append(pn.ms, q.Micros/1000)
				}
			}
			pn.hasCurve = pn.hasCurve || len(pn.curves[i]) > 0
		}
		if pn.hasCurve {
			panels = append(panels, pn)
		}
	}
	if len(panels) == 0 {
		return out, nil
	}
	cols := 1
	switch n := len(panels); {
	case n > 9:
		cols = 4
	case n > 4:
		cols = 3
	case n > 1:
		cols = 2
	}
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for k, pn := range panels {
		title := fmt.Sprintf("scale %d: %s time", pn.scale, pn.what)
		if len(panels) == 1 {
			title = fmt.Sprintf("%s time distribution at scale %d (percentile plot)", pn.what, pn.scale)
		}
		p := newPlot(title, "percentile [%]", pn.what+" time [ms]")
		if cols > 1 {
			p.Title.TextStyle.Font.Size = vg.Points(10)
			p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(8), vg.Points(8)
			p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = vg.Points(9), vg.Points(9)
		}
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = 1, pn.maxX
		p.X.Tick.Marker = percentileTicks{sparse: cols > 2}
		if !logAxis(&p.Y, pn.ms, nil) {
			continue
		}
		for i, c := range pn.curves {
			linePoints(p, i, c)
		}
		grid[k/cols][k%cols] = p
	}
	// one legend for all panels: a run missing from the first still has
	// its entry
	leg := newLegend()
	for i := range runs {
		leg.Add(labels[i], seriesThumb(i)...)
	}
	h := figH
	if rows > 1 || cols > 1 {
		h = vg.Length(rows)*2.7*vg.Inch + 0.3*vg.Inch
	}
	return out, renderChart(out, "compare_latency", 9*vg.Inch, h, layout(grid, vg.Points(18), leg))
}

// scaleOf is r's result at scale x, nil when r did not run it.
func scaleOf(r *results.DSBenchResults, x int64) *results.ScaleResult {
	for i := range r.Scales {
		if r.Scales[i].Scale == x {
			return &r.Scales[i]
		}
	}
	return nil
}

// percentileTicks labels the axis x = 1/(1-q) in percentiles: 1 is 0%,
// 10 is 90%, 100 is 99%, ...; sparse labels every other decade (small
// panels).
type percentileTicks struct{ sparse bool }

func (t percentileTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for e := 0; math.Pow(10, float64(e)) <= max*1.0001; e++ {
		v := math.Pow(10, float64(e))
		if v < min {
			continue
		}
		tk := plot.Tick{Value: v}
		if !t.sparse || e%2 == 0 {
			tk.Label = percentileLabel(e)
		}
		ts = append(ts, tk)
	}
	return ts
}

// percentileLabel writes 1 - 10^-e as a percentage without rounding
// noise: 0%, 90%, 99%, 99.9%, 99.99%, ...
func percentileLabel(e int) string {
	switch e {
	case 0:
		return "0%"
	case 1:
		return "90%"
	case 2:
		return "99%"
	}
	return "99." + strings.Repeat("9", e-2) + "%"
}
