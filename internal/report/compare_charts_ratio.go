package report

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RatioSeries is one run's ratios to the baseline: Ratio[i] for metric i
// with its interval [Low[i], High[i]] (NaN limits: no interval, the point
// is drawn alone; a NaN ratio: nothing drawn).
type RatioSeries struct {
	Label            string
	Ratio, Low, High []float64
}

// CompareRatioChart draws, per metric, each run's ratio to the baseline
// with its interval as a bar, and the line at 1 (no difference), on a log
// axis so that twice and half are as far from 1 (name.svg, name.png). A
// metric whose bar misses the line differs significantly. No chart
// without a ratio to draw.
func CompareRatioChart(name, title, yLabel string, metrics []string, series []RatioSeries) (map[string][]byte, error) {
	out := map[string][]byte{}
	p := newPlot(title, "", yLabel)
	all := []float64{1}
	for _, s := range series {
		for i, r := range s.Ratio {
			if r > 0 && !math.IsInf(r, 0) {
				all = append(all, r)
				if s.Low[i] > 0 && s.High[i] > 0 {
					all = append(all, s.Low[i], s.High[i])
				}
			}
		}
	}
	if len(all) == 1 || !logAxis(&p.Y, all, nil) {
		return out, nil
	}
	leg := newLegend()
	step := 0.5 / float64(max(len(series), 1))
	for si, s := range series {
		var pts, withCI plotter.XYs
		var errs plotter.YErrors
		for i, r := range s.Ratio {
			if !(r > 0) || math.IsInf(r, 0) {
				continue
			}
			x := float64(i) + (float64(si)-float64(len(series)-1)/2)*step
			pts = append(pts, plotter.XY{X: x, Y: r})
			if s.Low[i] > 0 && s.High[i] > 0 {
				withCI = append(withCI, plotter.XY{X: x, Y: r})
				errs = append(errs, struct{ Low, High float64 }{r - s.Low[i], s.High[i] - r})
			}
		}
		if len(pts) == 0 {
			continue
		}
		col, _, _ := seriesStyle(si + 1) // the baseline keeps colour 0
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return out, err
		}
		sc.Color, sc.Shape, sc.Radius = col, draw.CircleGlyph{}, vg.Points(3.5)
		if len(withCI) > 0 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{withCI, errs})
			if err != nil {
				return out, err
			}
			eb.Color, eb.LineStyle.Width, eb.CapWidth = col, vg.Points(1.5), vg.Points(5)
			p.Add(eb)
		}
		p.Add(sc)
		leg.Add(s.Label, sc)
	}
	n := float64(len(metrics))
	if one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: n - 0.5, Y: 1}}); err == nil {
		one.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		one.Width = vg.Points(1)
		p.Add(one)
		leg.Add("no difference (1)", one)
	}
	categoryAxis(p, metrics, 6)
	w := vg.Length(math.Max(9, 2.5+0.22*n)) * vg.Inch
	return out, renderChart(out, name, w, figH, withLegend(p, leg))
}
