package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dbgauge/dbgauge/internal/results"
)

// QueryKey names one Wisconsin measurement across runs: a query under a
// storage organisation with its result's destination, at a size.
type QueryKey struct {
	Query        int
	Organization string
	Destination  string
	Size         int64
}

// QueryKeyOf is q's key.
func QueryKeyOf(q *results.QueryResult) QueryKey {
	return QueryKey{Query: q.Query, Organization: q.Organization, Destination: q.Destination, Size: q.Size}
}

// QueryLabels names keys as shortly as they stay distinct: "Q9", with the
// organisation added where a query ran under several ("Q7 hash") and the
// destination where it went to several ("Q1 count"); the size is left to
// the caller (a chart is per size).
func QueryLabels(keys []QueryKey) []string {
	orgs, dests := map[int]map[string]bool{}, map[int]map[string]bool{}
	for _, k := range keys {
		if orgs[k.Query] == nil {
			orgs[k.Query], dests[k.Query] = map[string]bool{}, map[string]bool{}
		}
		orgs[k.Query][k.Organization] = true
		dests[k.Query][k.Destination] = true
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		l := fmt.Sprintf("Q%d", k.Query)
		if len(orgs[k.Query]) > 1 {
			l += " " + k.Organization
		}
		if len(dests[k.Query]) > 1 {
			l += " " + k.Destination
		}
		out[i] = l
	}
	return out
}

// CompareQueryChart draws, for Wisconsin runs at relation size size, each
// query's median time in every run as grouped bars, one colour per run,
// with a whisker from the fastest to the slowest repetition (name.svg,
// name.png). The time axis is logarithmic, since the queries' times span
// decades: compare the bars' tops, not their lengths. A query is shown when
// it ran correctly (status ok) in at least one run; no chart without one.
// labels[i] names runs[i].
func CompareQueryChart(name string, labels []string, runs []*results.WisconsinResults, size int64) (map[string][]byte, error) {
	out := map[string][]byte{}
	found := map[QueryKey]map[int]*results.QueryResult{}
	var keys []QueryKey
	for ri, r := range runs {
		for qi := range r.Queries {
			q := &r.Queries[qi]
			if q.Size != size || q.Status != results.StatusOK || !(q.ElapsedMS.Median > 0) {
				continue
			}
			k := QueryKeyOf(q)
			if found[k] == nil {
				found[k] = map[int]*results.QueryResult{}
				keys = append(keys, k)
			}
			found[k][ri] = q
		}
	}
	if len(keys) == 0 {
		return out, nil
	}
	slices.SortStableFunc(keys, func(a, b QueryKey) int {
		return cmp.Or(cmp.Compare(a.Query, b.Query), cmp.Compare(a.Organization, b.Organization), cmp.Compare(a.Destination, b.Destination))
	})
	names := QueryLabels(keys)
	p := newPlot(fmt.Sprintf("median time per query at N=%d (whiskers: fastest..slowest repetition)", size), "", "time [ms]")
	group := 0.8 / float64(len(runs))
	bars := make([]*logBars, len(runs))
	var all []float64
	for ri := range runs {
		c, _, _ := seriesStyle(ri)
		bars[ri] = &logBars{width: group * 0.9, color: c}
		for ki, k := range keys {
			q := found[k][ri]
			if q == nil {
				continue
			}
			x := float64(ki) + (float64(ri)-float64(len(runs)-1)/2)*group
			bars[ri].xs = append(bars[ri].xs, x)
			bars[ri].ys = append(bars[ri].ys, q.ElapsedMS.Median)
			bars[ri].lo = append(bars[ri].lo, q.ElapsedMS.Min)
			bars[ri].hi = append(bars[ri].hi, q.ElapsedMS.Max)
			all = append(all, q.ElapsedMS.Median, q.ElapsedMS.Min, q.ElapsedMS.Max)
		}
	}
	if !logAxis(&p.Y, all, nil) {
		return out, nil
	}
	leg := newLegend()
	for ri, b := range bars {
		p.Add(b)
		leg.Add(labels[ri], b)
	}
	categoryAxis(p, names, 4)
	w := vg.Length(math.Max(9, 2.5+0.11*float64(len(keys)*len(runs)))) * vg.Inch
	return out, renderChart(out, name, w, figH, withLegend(p, leg))
}

// logBars are bars from the bottom of a (log) y axis up to each value,
// where gonum's BarChart would start at 0, which a log axis cannot hold,
// with a whisker over [lo, hi] when given.
type logBars struct {
	xs, ys, lo, hi []float64
	width          float64 // in x data units
	color          color.Color
}

// Plot implements plot.Plotter.
func (b *logBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	base := trY(p.Y.Min)
	whisker := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(0.8)}
	for i, x := range b.xs {
		x0, x1, y := trX(x-b.width/2), trX(x+b.width/2), trY(b.ys[i])
		c.FillPolygon(b.color, []vg.Point{{X: x0, Y: base}, {X: x0, Y: y}, {X: x1, Y: y}, {X: x1, Y: base}})
		if b.lo != nil && b.hi[i] > b.lo[i] {
			xm := trX(x)
			c.StrokeLine2(whisker, xm, trY(math.Max(b.lo[i], p.Y.Min)), xm, trY(b.hi[i]))
		}
	}
}

// Thumbnail implements plot.Thumbnailer: a filled square in the bars' colour.
func (b *logBars) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(b.color, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y},
	})
}

// categoryAxis labels the x axis of p with one category per integer
// position; labels longer than long characters, or more than 24 of them,
// are turned upright so that they do not overlap.
func categoryAxis(p *plot.Plot, names []string, long int) {
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	var ticks plot.ConstantTicks
	turn := len(names) > 24
	for i, n := range names {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: n})
		turn = turn || len(n) > long
	}
	p.X.Tick.Marker = ticks
	if turn {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
}
