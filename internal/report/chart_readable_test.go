package report

import (
	"fmt"
	"image"
	"image/color"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestChartsReadable draws every chart the package builds from the stored
// fixture runs (fixtureCharts) and checks what a reader needs to read
// values off it: each axis carries at least two labelled ticks within the
// range of the data plotted on it (when all the data sit on one value, as
// in a run of one scale: a label at the value, or two within ±20% of it),
// every string drawn, legend labels included, fits the figure whole even
// when drawn a fifth wider than measured (its visible part equals its
// text), and the rate chart's durations have a legend of their own.
func TestChartsReadable(t *testing.T) {
	figs := fixtureCharts(t)
	if len(figs) < 25 {
		t.Fatalf("%d charts built from the fixtures, want 25 or more", len(figs))
	}
	for _, b := range figs {
		for _, s := range drawnStrings(b.w, b.h, b.f) {
			if vis := s.visible(b.w, b.h); vis != s.text {
				t.Errorf("%s: %q is drawn as %q (cut by the figure's edge)", b.name, s.text, vis)
			}
		}
		// the rate and its spread above, the durations below: a legend each
		if b.name == "rate" && len(b.f.plots) == 2 && len(b.f.legends) != 2 {
			t.Errorf("rate: %d panels with %d legends, want one beside each", len(b.f.plots), len(b.f.legends))
		}
		for i, row := range b.f.plots {
			for j, p := range row {
				if p == nil {
					continue
				}
				xlo, xhi, ylo, yhi := dataRange(p)
				for _, ax := range []struct {
					what   string
					a      *plot.Axis
					lo, hi float64
				}{{"x", &p.X, xlo, xhi}, {"y", &p.Y, ylo, yhi}} {
					if msg := axisReadable(ax.a, ax.lo, ax.hi); msg != "" {
						t.Errorf("%s panel %d,%d, %s axis %q: %s", b.name, i, j, ax.what, ax.a.Label.Text, msg)
					}
				}
			}
		}
	}
}

// narrowRates is a copy of r whose scale rates are mapped linearly into
// [lo, hi] (a sweep whose rates barely move).
func narrowRates(r *results.DSBenchResults, lo, hi float64) *results.DSBenchResults {
	c := *r
	c.Scales = slices.Clone(r.Scales)
	min, max := math.Inf(1), math.Inf(-1)
	for _, s := range c.Scales {
		for _, v := range append([]float64{s.MinTPS, s.MaxTPS}, s.Cycles...) {
			min, max = math.Min(min, v), math.Max(max, v)
		}
	}
	k := (hi - lo) / (max - min)
	to := func(v float64) float64 { return lo + (v-min)*k }
	for i := range c.Scales {
		s := &c.Scales[i]
		s.MedianTPS, s.MeanTPS, s.MinTPS, s.MaxTPS, s.StddevTPS = to(s.MedianTPS), to(s.MeanTPS), to(s.MinTPS), to(s.MaxTPS), s.StddevTPS*k
		s.Cycles = slices.Clone(s.Cycles)
		for j, v := range s.Cycles {
			s.Cycles[j] = to(v)
		}
		s.ConfidenceTPS = maps.Clone(s.ConfidenceTPS)
		for l, v := range s.ConfidenceTPS {
			s.ConfidenceTPS[l] = to(v)
		}
	}
	return &c
}

// axisReadable says what is wrong with the labelled ticks of a over the
// data range [lo, hi]; "" when at least two fall within it (or one on the
// value, when the data have one value).
func axisReadable(a *plot.Axis, lo, hi float64) string {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "" // nothing plotted on this axis
	}
	var in, all []string
	eps := 1e-9 * math.Max(math.Abs(lo), math.Abs(hi))
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label == "" {
			continue
		}
		all = append(all, tk.Label)
		if tk.Value >= lo-eps && tk.Value <= hi+eps && tk.Value >= a.Min && tk.Value <= a.Max {
			in = append(in, tk.Label)
		}
	}
	if hi-lo <= eps { // one value: a label on it, or two around it
		near := 0
		for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
			if tk.Label != "" && math.Abs(tk.Value-lo) <= eps {
				return ""
			}
			if tk.Label != "" && math.Abs(tk.Value-lo) <= 0.2*math.Abs(lo) {
				near++
			}
		}
		if near >= 2 {
			return ""
		}
		return fmt.Sprintf("labelled ticks %q, none at the data's one value %g and %d within ±20%% of it, want 2", all, lo, near)
	}
	if len(in) < 2 {
		return fmt.Sprintf("labelled ticks %q, %d of them within the data's range [%g, %g], want 2", all, len(in), lo, hi)
	}
	return ""
}

// dataRange is the union of the data ranges of p's plotters (gonum keeps
// them unexported; the tests read them to check the axes against the data
// actually drawn, not against what the chart code believes it drew).
func dataRange(p *plot.Plot) (xlo, xhi, ylo, yhi float64) {
	xlo, ylo, xhi, yhi = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	v := reflect.ValueOf(p).Elem().FieldByName("plotters")
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		e = reflect.NewAt(e.Type(), unsafe.Pointer(e.UnsafeAddr())).Elem()
		dr, ok := e.Interface().(plot.DataRanger)
		if !ok {
			continue
		}
		a, b, c, d := dr.DataRange()
		for _, u := range []struct {
			lo, hi *float64
			a, b   float64
		}{{&xlo, &xhi, a, b}, {&ylo, &yhi, c, d}} {
			if !math.IsNaN(u.a) && !math.IsInf(u.a, 0) {
				*u.lo = math.Min(*u.lo, u.a)
			}
			if !math.IsNaN(u.b) && !math.IsInf(u.b, 0) {
				*u.hi = math.Max(*u.hi, u.b)
			}
		}
	}
	return
}

// browserSlack is how much wider than measured a string may be drawn: the
// SVG names Liberation Serif and a browser without it draws its own serif.
const browserSlack = 1.2

// drawnString is one string drawn, with its box in figure coordinates.
type drawnString struct {
	text       string
	face       font.Face
	at         vg.Point // start of the baseline
	dir        vg.Point // unit vector along the baseline
	width, asc vg.Length
}

// visible is the part of the text that lies inside a w x h figure when
// drawn up to browserSlack wider than measured.
func (s drawnString) visible(w, h vg.Length) string {
	inside := func(p vg.Point) bool { return p.X >= -0.5 && p.Y >= -0.5 && p.X <= w+0.5 && p.Y <= h+0.5 }
	rs := []rune(s.text)
	for n := len(rs); n > 0; n-- {
		sub := string(rs[:n])
		l := s.face.Width(sub) * browserSlack
		end := vg.Point{X: s.at.X + s.dir.X*l, Y: s.at.Y + s.dir.Y*l}
		if inside(s.at) && inside(end) {
			return sub
		}
	}
	return ""
}

// drawnStrings draws f on a recording canvas and returns every string.
func drawnStrings(w, h vg.Length, f *figure) []drawnString {
	rc := &recCanvas{m: []affine{{a: 1, d: 1}}}
	f.draw(draw.NewCanvas(rc, w, h))
	return rc.strs
}

// affine maps (x, y) to (a x + b y + e, c x + d y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.b*y + m.e), Y: vg.Length(m.c*x + m.d*y + m.f)}
}

// then is m applied after n (n's coordinates are inside m's).
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.b*n.c, b: m.a*n.b + m.b*n.d,
		c: m.c*n.a + m.d*n.c, d: m.c*n.b + m.d*n.d,
		e: m.a*n.e + m.b*n.f + m.e, f: m.c*n.e + m.d*n.f + m.f,
	}
}

// recCanvas is a vg.Canvas that draws nothing and records the strings.
type recCanvas struct {
	m    []affine // transform stack, current last
	strs []drawnString
}

func (c *recCanvas) cur() *affine                        { return &c.m[len(c.m)-1] }
func (c *recCanvas) SetLineWidth(vg.Length)              {}
func (c *recCanvas) SetLineDash([]vg.Length, vg.Length)  {}
func (c *recCanvas) SetColor(color.Color)                {}
func (c *recCanvas) Stroke(vg.Path)                      {}
func (c *recCanvas) Fill(vg.Path)                        {}
func (c *recCanvas) DrawImage(vg.Rectangle, image.Image) {}
func (c *recCanvas) Push()                               { c.m = append(c.m, *c.cur()) }
func (c *recCanvas) Pop()                                { c.m = c.m[:len(c.m)-1] }
func (c *recCanvas) Translate(p vg.Point) {
	*c.cur() = c.cur().then(affine{a: 1, d: 1, e: float64(p.X), f: float64(p.Y)})
}
func (c *recCanvas) Scale(x, y float64) { *c.cur() = c.cur().then(affine{a: x, d: y}) }
func (c *recCanvas) Rotate(r float64) {
	s, k := math.Sincos(r)
	*c.cur() = c.cur().then(affine{a: k, b: -s, c: s, d: k})
}
func (c *recCanvas) FillString(f font.Face, p vg.Point, text string) {
	m := *c.cur()
	o, x := m.apply(p), m.apply(vg.Point{X: p.X + 1, Y: p.Y})
	c.strs = append(c.strs, drawnString{text: text, face: f, at: o, dir: vg.Point{X: x.X - o.X, Y: x.Y - o.Y}})
}

// builtChart is one chart drawn from the fixtures: its figure and its SVG.
type builtChart struct {
	name string
	w, h vg.Length
	f    *figure
	svg  []byte
}

// fixtureCharts builds every chart the package draws from the stored
// fixture runs (../report/htmlreport/testdata/runs): every experiment's
// charts, those of two sweeps made from them (rates within 14000..16000,
// the synthetic four-scale sweep) and the compare charts.
func fixtureCharts(t *testing.T) []builtChart {
	t.Helper()
	var figs []builtChart
	chartBuilt = func(name string, w, h vg.Length, f *figure) {
		figs = append(figs, builtChart{name: name, w: w, h: h, f: f})
	}
	defer func() { chartBuilt = nil }()

	runs := map[string]any{}
	for _, dir := range []string{"dsbench", "dsbench_nodes", "qac", "multiuser", "sizesweep", "abtest", "speedup", "wisconsin", "wisconsin2"} {
		s, err := results.ReadRun(filepath.Join("htmlreport/testdata/runs", dir))
		if err != nil {
			t.Fatal(err)
		}
		runs[dir] = s.Results
	}
	ds := func(k string) *results.DSBenchResults { return runs[k].(*results.DSBenchResults) }
	wi := func(k string) *results.WisconsinResults { return runs[k].(*results.WisconsinResults) }
	for _, build := range []func() (map[string][]byte, error){
		func() (map[string][]byte, error) { return DSBenchCharts(ds("dsbench")) },
		func() (map[string][]byte, error) { return DSBenchCharts(ds("dsbench_nodes")) },
		// the sweep of the issue: rates within 14000..16000, on log axes
		func() (map[string][]byte, error) {
			return DSBenchCharts(narrowRates(ds("dsbench_nodes"), 14000, 16000))
		},
		func() (map[string][]byte, error) { return DSBenchCharts(distributed(syntheticDSBench(t))) },
		func() (map[string][]byte, error) { return QACChart(runs["qac"].(*results.QACResults)) },
		func() (map[string][]byte, error) { return QACChart(noneKept(t)) },
		func() (map[string][]byte, error) {
			return MultiuserChart(runs["multiuser"].(*results.MultiuserResults))
		},
		func() (map[string][]byte, error) {
			return SizeSweepChart(runs["sizesweep"].(*results.SizeSweepResults))
		},
		func() (map[string][]byte, error) { return ABTestChart(runs["abtest"].(*results.ABTestResults)) },
		func() (map[string][]byte, error) { return SpeedupCharts(runs["speedup"].(*results.SpeedupResults)) },
		func() (map[string][]byte, error) {
			return CompareRateChart([]string{"a", "b"}, []*results.DSBenchResults{ds("dsbench"), ds("dsbench_nodes")})
		},
		func() (map[string][]byte, error) {
			return CompareLatencyChart([]string{"a", "b"}, []*results.DSBenchResults{ds("dsbench"), ds("dsbench_nodes")})
		},
		func() (map[string][]byte, error) {
			var ss []CompareSeries
			for _, k := range []string{"dsbench", "dsbench_nodes"} {
				c := CompareSeries{Label: k}
				for _, sc := range ds(k).Scales {
					c.X, c.Y = append(c.X, float64(sc.Scale)), append(c.Y, sc.MedianTPS)
					c.Low, c.High = append(c.Low, sc.MinTPS), append(c.High, sc.MaxTPS)
				}
				ss = append(ss, c)
			}
			return CompareLinesChart("compare_lines", "median rate against scale", "scale", "rate [tps]", ss)
		},
		func() (map[string][]byte, error) {
			a, b := ds("dsbench").Scales[0], ds("dsbench_nodes").Scales[0]
			q := b.MedianTPS / a.MedianTPS
			return CompareRatioChart("compare_ratios", "ratio to the baseline", "ratio to A", []string{"median rate", "mean rate"},
				[]RatioSeries{{Label: "B", Ratio: []float64{q, b.MeanTPS / a.MeanTPS}, Low: []float64{q * b.MinTPS / b.MedianTPS, 0}, High: []float64{q * b.MaxTPS / b.MedianTPS, 0}}})
		},
		func() (map[string][]byte, error) {
			return CompareQueryChart("compare_q", []string{"a", "b"}, []*results.WisconsinResults{wi("wisconsin"), wi("wisconsin2")}, 100)
		},
	} {
		from := len(figs)
		files, err := build()
		if err != nil {
			t.Fatal(err)
		}
		for i := from; i < len(figs); i++ {
			figs[i].svg = files[figs[i].name+".svg"]
		}
		// CHART_DIR=/some/dir keeps the charts to look at them
		if dir := os.Getenv("CHART_DIR"); dir != "" {
			for name, b := range files {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d_%s", len(figs), name)), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return figs
}
