package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Helpers shared by the charts: drawing one figure to SVG and PNG, a legend
// outside the plot on the right (as seed 001's gnuplot diagrams place it, so
// that many curves never hide data), log axes that cannot panic on zero,
// and series styles.

// pngDPI makes a 9 x 5.5 in figure 990 x 605 pixels: readable on a screen
// and in the HTML report.
const pngDPI = 110

// figure is one chart: its panels (for the checks of the tests) and the
// function that draws them on a canvas of the size it was rendered at.
type figure struct {
	plots   [][]*plot.Plot
	legends []plot.Legend
	draw    func(dc draw.Canvas)
}

// chartBuilt, when set (by the tests), sees every figure renderChart draws.
var chartBuilt func(name string, w, h vg.Length, f *figure)

// renderChart returns name.svg and name.png of one figure.
func renderChart(out map[string][]byte, name string, w, h vg.Length, f *figure) (err error) {
	if chartBuilt != nil {
		chartBuilt(name, w, h, f)
	}
	defer func() {
		// gonum panics on impossible axes (a log axis reaching 0); the data
		// are filtered before, so a panic here is a bug to report, not a
		// reason to lose the other charts.
		if p := recover(); p != nil {
			err = fmt.Errorf("chart %s: %v", name, p)
		}
	}()
	sc := vgsvg.New(w, h)
	f.draw(draw.New(sc))
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return fmt.Errorf("chart %s.svg: %w", name, err)
	}
	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
	f.draw(draw.New(ic))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return fmt.Errorf("chart %s.png: %w", name, err)
	}
	out[name+".svg"], out[name+".png"] = sb.Bytes(), pb.Bytes()
	return nil
}

// withLegend draws p with its legend outside on the right.
func withLegend(p *plot.Plot, leg plot.Legend) *figure {
	return layout([][]*plot.Plot{{p}}, 0, leg)
}

// layout is the one arrangement of every chart: the plots as a grid (nil
// cells stay empty) on the left, aligned so that their data areas line up,
// and the legends outside on the right (as seed 001's gnuplot diagrams
// place them, so that many curves never hide data): one legend beside the
// whole grid, or one beside each row (each describing the quantity of its
// row). The legend column is as wide as the widest label needs, so that
// no label is cut.
func layout(grid [][]*plot.Plot, pad vg.Length, legs ...plot.Legend) *figure {
	return &figure{grid, legs, func(dc draw.Canvas) {
		wl := vg.Length(0)
		for _, l := range legs {
			r := l.Rectangle(dc)
			// The legend is measured with Liberation Serif, which the SVG
			// names; a browser without it draws its own serif, DejaVu
			// Serif on Debian, up to a third wider: the room for that keeps
			// the last characters of long labels (TestChartsFitInBrowser).
			wl = max(wl, (r.Max.X-r.Min.X)*1.35+vg.Points(12))
		}
		filled := make([][]*plot.Plot, len(grid))
		for i, row := range grid {
			filled[i] = make([]*plot.Plot, len(row))
			for j, p := range row {
				if p == nil {
					p = plot.New() // Align needs a plot in every cell
					p.HideAxes()
				}
				filled[i][j] = p
			}
		}
		// Align rather than p.Draw: it sizes the data area from the real
		// extents of the two-line scale labels, which p.Draw pads twice.
		tiles := draw.Tiles{Rows: len(grid), Cols: len(grid[0]), PadX: pad, PadY: pad}
		// a margin on the left for the y label, taller in a wider font
		cs := plot.Align(filled, tiles, draw.Crop(dc, vg.Points(3), -wl, 0, -vg.Points(6)))
		for i, row := range grid {
			for j, p := range row {
				if p != nil {
					p.Draw(cs[i][j])
				}
			}
		}
		for i, l := range legs {
			top := dc.Max.Y - vg.Points(24)
			if len(legs) == len(grid) && len(legs) > 1 {
				top = cs[i][0].Max.Y - vg.Points(18)
			}
			l.Top, l.Left = true, true
			lc := draw.Crop(dc, dc.Max.X-dc.Min.X-wl+vg.Points(6), 0, 0, 0)
			lc.Max.Y = top
			l.Draw(lc)
		}
	}}
}

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(10)
	l.Padding = vg.Points(2)
	return l
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker, p.Y.Tick.Marker = readableTicks{}, readableTicks{}
	return p
}

// logAxis makes a log axis spanning the positive values vs, padded by a
// small factor; false when there is none (the chart is then left out).
func logAxis(a *plot.Axis, vs []float64, ticks plot.Ticker) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 0) {
		return false
	}
	a.Scale = plot.LogScale{}
	a.Min, a.Max = lo/1.4, hi*1.4
	if ticks == nil {
		ticks = dataAxisTicks(vs, true)
	}
	a.Tick.Marker = ticks
	return true
}

// scaleTicks labels the scales run, each with its database size below it:
// the seed's upper axis of database sizes, folded into the lower one.
type scaleTicks struct {
	scales []float64
	gb     []float64 // <= 0: size unknown
}

func (s scaleTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for i, x := range s.scales {
		if x < min || x > max {
			continue
		}
		l := strconv.FormatFloat(x, 'f', -1, 64)
		if s.gb[i] > 0 {
			l += "\n" + gbLabel(s.gb[i])
		}
		ts = append(ts, plot.Tick{Value: x, Label: l})
	}
	return ts
}

// gbLabel writes a size with two significant digits, without exponent.
func gbLabel(gb float64) string {
	if gb >= 10 {
		return strconv.FormatFloat(math.Round(gb), 'f', 0, 64)
	}
	return strconv.FormatFloat(gb, 'g', 2, 64)
}

// seriesStyle gives series i a colour, a dash pattern once the colours repeat,
// and a glyph shape.
func seriesStyle(i int) (color.Color, []vg.Length, draw.GlyphDrawer) {
	n := len(plotutil.DefaultColors)
	return plotutil.Color(i), plotutil.Dashes(i / n), plotutil.Shape(i)
}

// positiveXY keeps the points with both coordinates > 0 (log axes).
func positiveXY(xys plotter.XYs) plotter.XYs {
	var out plotter.XYs
	for _, p := range xys {
		if p.X > 0 && p.Y > 0 && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) {
			out = append(out, p)
		}
	}
	return out
}

// linePoints adds series i as a line with points and returns its legend
// thumbnails; nothing when it has no point.
func linePoints(p *plot.Plot, i int, xys plotter.XYs) []plot.Thumbnailer {
	if len(xys) == 0 {
		return nil
	}
	c, dashes, shape := seriesStyle(i)
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil
	}
	l.Color, l.Dashes, l.Width = c, dashes, vg.Points(1.5)
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(2.5)
	p.Add(l, s)
	return []plot.Thumbnailer{l, s}
}
