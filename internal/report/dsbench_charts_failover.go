package report

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dbgauge/dbgauge/internal/results"
)

// failoverChart is the failover's timeline (--fault kill-node): the
// clients' commits and errors per second against the time since the
// kill, each a sliding mean over one second of the 0.1 s steps, with the
// fault's steps marked as vertical lines: the kill, the promotion, the
// node's restart and its return to step, and the rate back at 90 % of
// what it was. Left out when no scale had a failover.
func failoverChart(r *results.DSBenchResults) (*figure, vg.Length, error) {
	var s *results.ScaleResult
	for i := range r.Scales {
		if r.Scales[i].Failover != nil && len(r.Scales[i].Failover.Timeline.TPS) > 0 {
			s = &r.Scales[i]
			break
		}
	}
	if s == nil {
		return nil, 0, nil
	}
	f := s.Failover
	p := newPlot(dsbTitle(r, fmt.Sprintf("scale %d, node %d killed", s.Scale, f.Node)), "time since the kill [s]", "clients' rate [per s]")
	tl := f.Timeline
	tps, errs := slidingSecond(tl.TPS, tl.StepS), slidingSecond(tl.Errors, tl.StepS)
	var top float64
	line := func(vs []float64) plotter.XYs {
		xys := make(plotter.XYs, len(vs))
		for i, v := range vs {
			xys[i] = plotter.XY{X: tl.StartS + float64(i+1)*tl.StepS, Y: v}
			top = max(top, v)
		}
		return xys
	}
	leg := newLegend()
	for i, c := range []struct {
		name string
		xys  plotter.XYs
	}{{"commits", line(tps)}, {"errors", line(errs)}} {
		l, err := plotter.NewLine(c.xys)
		if err != nil {
			return nil, 0, err
		}
		col, _, _ := seriesStyle(i)
		l.Color, l.Width = col, vg.Points(1.5)
		p.Add(l)
		leg.Add(c.name, l)
	}
	p.Y.Min, p.Y.Max = 0, top*1.1+1
	marks := []struct {
		name string
		at   *float64
	}{{"kill", new(float64)}, {"promoted", f.PromotedS}, {"restarted", f.RejoinStartS}, {"rejoined", sum(f.RejoinStartS, f.RejoinS)}, {"back to 90%", f.BackToRateS}}
	for i, m := range marks {
		if m.at == nil {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: *m.at, Y: 0}, {X: *m.at, Y: p.Y.Max}})
		if err != nil {
			return nil, 0, err
		}
		c, dashes, _ := seriesStyle(i + 2)
		l.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1), Dashes: dashes}
		if len(dashes) == 0 {
			l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		leg.Add(fmt.Sprintf("%s (%.1f s)", m.name, *m.at), l)
	}
	return withLegend(p, leg), figH, nil
}

// slidingSecond is the mean of each step and the steps of the second
// before it: rates in steps of 0.1 s are too jagged to read.
func slidingSecond(vs []float64, step float64) []float64 {
	n := max(int(1/step+0.5), 1)
	out := make([]float64, len(vs))
	var acc float64
	for i, v := range vs {
		acc += v
		if i >= n {
			acc -= vs[i-n]
		}
		out[i] = acc / float64(min(i+1, n))
	}
	return out
}

// sum is a + b, nil when either is.
func sum(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	s := *a + *b
	return &s
}
