package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The speedup run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("speedup", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.SpeedupResults)
		charts, err := SpeedupCharts(res)
		return withCharts(map[string][]byte{"speedup.txt": SpeedupText(res), "speedup.csv": SpeedupCSV(res)}, charts, err)
	})
}

// Speedup report (seed 003 Figures 2-16): per part a wide table (median
// time and speedup at every value, as the figures read) and a long table
// with every point's detail; charts of time and speedup against p with the
// ideal line, time and hash batches against memory, time against page size.

// curveName labels a curve as the figures do.
func curveName(c results.SpeedupCurve) string {
	if c.Query == 0 {
		return fmt.Sprintf("%s %s (%s)", c.Class, c.Org, c.Attribute)
	}
	return fmt.Sprintf("Q%d %s %s (%s)", c.Query, c.Class, c.Org, c.Attribute)
}

func partTitle(r *results.SpeedupResults, part *results.SpeedupPart) string {
	dest := "each result stored into a relation (CREATE TABLE AS)"
	if r.Destination == results.DestCount {
		dest = "each result counted in the engine"
	}
	base := fmt.Sprintf("%s %s, Wisconsin N=%d, %d repetitions per point, %s", r.Engine, r.EngineVersion, r.Size, r.Reps, dest)
	switch part.Variable {
	case "parallelism":
		return fmt.Sprintf("Speedup against p: %s; total memory %s held constant; reference p=%d", base, bytesLabel(part.MemoryBytes), part.Ref)
	case "memory":
		return fmt.Sprintf("Join memory sweep at p=%d: %s", part.P, base)
	}
	return "Page size: " + base
}

// valueLabel writes a part's variable value.
func valueLabel(variable string, x int64) string {
	switch variable {
	case "memory":
		return bytesLabel(x)
	case "page_size":
		return bytesLabel(x)
	}
	return "p=" + strconv.FormatInt(x, 10)
}

// bytesLabel writes a size in the unit it was most likely given in: a
// binary unit when it divides exactly (GiB, MiB), else a decimal one (GB,
// MB), then kB and KiB, else bytes.
func bytesLabel(b int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1 << 10, "KiB"}} {
		if b >= u.n && b%u.n == 0 {
			return strconv.FormatInt(b/u.n, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(b, 10) + " B"
}

// speedupWide is one row per query: the median time (and the speedup, for
// parallelism; the hash batches, for memory) at every value.
func speedupWide(r *results.SpeedupResults, part *results.SpeedupPart) *Table {
	t := &Table{Title: []string{partTitle(r, part), "median response time in ms"}}
	head := []string{"query", "organization", "attribute"}
	for _, x := range part.Values {
		l := valueLabel(part.Variable, x)
		head = append(head, l)
		switch part.Variable {
		case "parallelism":
			head = append(head, "speedup "+l)
		case "memory":
			head = append(head, "batches "+l)
		}
	}
	t.Rows = append(t.Rows, head)
	for _, c := range part.Curves {
		row := []string{curveClass(c), c.Org, c.Attribute}
		for _, x := range part.Values {
			pt := pointAt(c, x)
			switch {
			case pt == nil || pt.Error != "" || len(pt.TimesMS) == 0:
				row = append(row, "-")
			default:
				row = append(row, ms(pt.MedianMS))
			}
			switch part.Variable {
			case "parallelism":
				row = append(row, speedupCell(pt))
			case "memory":
				row = append(row, intCell(pt, func(p *results.SpeedupPoint) int64 { return int64(p.HashBatches) }))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = partNotes(part)
	if et := r.EngineTime; et != nil {
		t.Notes = append(t.Notes, engineTimingLine(et)+" (docs/wisconsin.md §8): each point's engine_ms and engine_median_ms in results.json and speedup.csv")
	}
	return t
}

func curveClass(c results.SpeedupCurve) string {
	if c.Query == 0 {
		return c.Class
	}
	return fmt.Sprintf("Q%d %s", c.Query, c.Class)
}

func pointAt(c results.SpeedupCurve, x int64) *results.SpeedupPoint {
	for i := range c.Points {
		if c.Points[i].X == x {
			return &c.Points[i]
		}
	}
	return nil
}

func speedupCell(pt *results.SpeedupPoint) string {
	if pt == nil || pt.Speedup == 0 || math.IsNaN(pt.Speedup) {
		return "-"
	}
	return strconv.FormatFloat(pt.Speedup, 'f', 2, 64)
}

func intCell(pt *results.SpeedupPoint, get func(*results.SpeedupPoint) int64) string {
	if pt == nil || get(pt) < 0 {
		return "n/a"
	}
	return strconv.FormatInt(get(pt), 10)
}

func partNotes(part *results.SpeedupPart) []string {
	var n []string
	if part.Knob != "" {
		n = append(n, "how: "+part.Knob)
	}
	if len(part.Fixed) > 0 {
		var kv []string
		for _, k := range sortedKeys(part.Fixed) {
			kv = append(kv, k+"="+part.Fixed[k])
		}
		n = append(n, "session settings: "+strings.Join(kv, ", "))
	}
	return n
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// speedupLong is every point with its detail.
func speedupLong(part *results.SpeedupPart) *Table {
	t := &Table{}
	t.Rows = append(t.Rows, []string{"part", "query", "organization", "attribute", part.Variable, "median_ms", "min_ms", "max_ms", "rsd", "engine_median_ms",
		"speedup", "ideal", "workers_launched", "workers_planned", "hash_batches", "temp_bytes", "page_bytes", "rows", "settings", "error"})
	for _, c := range part.Curves {
		for i := range c.Points {
			pt := &c.Points[i]
			sp, id := "-", "-"
			if part.Variable == "parallelism" {
				sp = speedupCell(pt)
				if pt.Ideal > 0 {
					id = strconv.FormatFloat(pt.Ideal, 'f', 2, 64)
				}
			}
			pb, eng := "-", "-"
			if pt.PageBytes > 0 {
				pb = strconv.FormatInt(pt.PageBytes, 10)
			}
			if len(pt.EngineMS) > 0 {
				eng = ms(pt.EngineMedianMS)
			}
			t.Rows = append(t.Rows, []string{part.Variable, curveClass(c), c.Org, c.Attribute, strconv.FormatInt(pt.X, 10),
				ms(pt.MedianMS), ms(pt.MinMS), ms(pt.MaxMS), strconv.FormatFloat(pt.RSD, 'f', 3, 64), eng, sp, id,
				intCell(pt, func(p *results.SpeedupPoint) int64 { return int64(p.WorkersLaunched) }),
				intCell(pt, func(p *results.SpeedupPoint) int64 { return int64(p.WorkersPlanned) }),
				intCell(pt, func(p *results.SpeedupPoint) int64 { return int64(p.HashBatches) }),
				intCell(pt, func(p *results.SpeedupPoint) int64 { return p.TempBytes }),
				pb, strconv.FormatInt(pt.Rows, 10), strings.Join(pt.Settings, "; "), pt.Error})
		}
	}
	return t
}

func speedupParts(r *results.SpeedupResults) []*results.SpeedupPart {
	var out []*results.SpeedupPart
	for _, p := range []*results.SpeedupPart{r.Speedup, r.Memory, r.PageSize} {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// SpeedupText is every part's wide table, or its "not applicable" line,
// then the detail.
func SpeedupText(r *results.SpeedupResults) []byte {
	var b bytes.Buffer
	for _, part := range speedupParts(r) {
		if !part.Applicable {
			fmt.Fprintf(&b, "%s on %s: not applicable: %s\n\n", part.Variable, r.Engine, part.Reason)
			continue
		}
		speedupWide(r, part).Text(&b)
	}
	for _, part := range speedupParts(r) {
		if part.Applicable && len(part.Curves) > 0 {
			l := speedupLong(part)
			l.Title = []string{"Every point of " + part.Variable + " (ms; workers and hash batches from the warm-up's EXPLAIN ANALYZE; n/a: the engine does not say)"}
			l.Text(&b)
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "run failed: %s\n", r.Error)
	}
	return b.Bytes()
}

// SpeedupCSV is every point of every part (a not-applicable part is one
// row saying so).
func SpeedupCSV(r *results.SpeedupResults) []byte {
	return SpeedupCSVTable(r).CSVBytes()
}

// SpeedupCSVTable is speedup.csv as a table value: one header, then every
// part's rows, each led by the part's variable.
func SpeedupCSVTable(r *results.SpeedupResults) *Table {
	t := &Table{}
	for _, part := range speedupParts(r) {
		l := speedupLong(part)
		if len(t.Rows) == 0 {
			t.Rows = append(t.Rows, l.Rows[0])
		}
		if !part.Applicable {
			row := make([]string, len(l.Rows[0]))
			row[0], row[len(row)-1] = part.Variable, "not applicable: "+part.Reason
			t.Rows = append(t.Rows, row)
			continue
		}
		t.Rows = append(t.Rows, l.Rows[1:]...)
	}
	return t
}

// SpeedupCharts draws response.svg/png and speedup.svg/png against p (the
// latter with the ideal line p/p_ref), memory.svg/png and
// memory_batches.svg/png against memory, pagesize.svg/png against page size.
func SpeedupCharts(r *results.SpeedupResults) (map[string][]byte, error) {
	out := map[string][]byte{}
	var errs []string
	draw := func(name string, f *figure, ok bool) {
		if !ok || f == nil {
			return
		}
		if err := renderChart(out, name, 9*vg.Inch, figH, f); err != nil {
			errs = append(errs, err.Error())
		}
	}
	draw2 := func(name string) func(*figure, bool) {
		return func(f *figure, ok bool) { draw(name, f, ok) }
	}
	if p := r.Speedup; p != nil && p.Applicable && len(p.Curves) > 0 {
		draw2("response")(curveChart(r, p, "response time against p", "degree of parallelism p [workers]", func(pt results.SpeedupPoint) float64 { return pt.MedianMS }, true))
		draw2("speedup")(speedupChart(r, p))
	}
	if p := r.Memory; p != nil && p.Applicable && len(p.Curves) > 0 {
		draw2("memory")(curveChart(r, p, fmt.Sprintf("join response time against memory (p=%d)", p.P), "total join memory [bytes]", func(pt results.SpeedupPoint) float64 { return pt.MedianMS }, true))
		draw2("memory_batches")(curveChart(r, p, fmt.Sprintf("hash batches against memory (p=%d)", p.P), "total join memory [bytes]", func(pt results.SpeedupPoint) float64 { return float64(pt.HashBatches) }, false))
	}
	if p := r.PageSize; p != nil && p.Applicable && len(p.Curves) > 0 {
		draw2("pagesize")(curveChart(r, p, "response time against page size", "page size [bytes]", func(pt results.SpeedupPoint) float64 { return pt.MedianMS }, true))
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// xTicks labels the part's values on the x axis.
func xTicks(part *results.SpeedupPart) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for _, x := range part.Values {
			l := strconv.FormatInt(x, 10)
			if part.Variable != "parallelism" {
				l = bytesLabel(x)
			}
			ts = append(ts, plot.Tick{Value: float64(x), Label: l})
		}
		return ts
	})
}

// curveChart draws y against the part's variable, one curve per query; the
// memory and page-size axes are logarithmic (the values halve or double),
// the time axis too when timeAxis (times differ by orders of magnitude
// between a 0% selection and a join).
func curveChart(r *results.SpeedupResults, part *results.SpeedupPart, what, xlabel string, y func(results.SpeedupPoint) float64, timeAxis bool) (*figure, bool) {
	ylabel := "response time [ms]"
	if !timeAxis {
		ylabel = "hash batches [count]"
	}
	p := newPlot(fmt.Sprintf("%s %s: %s", r.Engine, r.EngineVersion, what), xlabel, ylabel)
	leg := newLegend()
	var ys, xs []float64
	for i, c := range part.Curves {
		var xys plotter.XYs
		for _, pt := range c.Points {
			v := y(pt)
			if pt.Error != "" || len(pt.TimesMS) == 0 || v <= 0 || math.IsNaN(v) {
				continue
			}
			xys = append(xys, plotter.XY{X: float64(pt.X), Y: v})
			ys, xs = append(ys, v), append(xs, float64(pt.X))
		}
		if th := linePoints(p, i, xys); th != nil {
			leg.Add(curveName(c), th...)
		}
	}
	if len(ys) == 0 {
		return nil, false
	}
	if part.Variable != "parallelism" {
		if !logAxis(&p.X, xs, nil) {
			return nil, false
		}
	} else {
		p.X.Min, p.X.Max = 0, float64(part.Values[len(part.Values)-1])+0.5
	}
	p.X.Tick.Marker = xTicks(part)
	if timeAxis {
		logAxis(&p.Y, ys, nil)
	} else {
		p.Y.Min = 0
	}
	return withLegend(p, leg), true
}

// speedupChart draws T(ref)/T(p) against p with the ideal p/ref line.
func speedupChart(r *results.SpeedupResults, part *results.SpeedupPart) (*figure, bool) {
	p := newPlot(fmt.Sprintf("%s %s: speedup against p (reference p=%d)", r.Engine, r.EngineVersion, part.Ref), "degree of parallelism p [workers]", "speedup T(p_ref)/T(p) [ratio]")
	leg := newLegend()
	var ideal plotter.XYs
	for _, x := range part.Values {
		ideal = append(ideal, plotter.XY{X: float64(x), Y: float64(x) / float64(part.Ref)})
	}
	l, err := plotter.NewLine(ideal)
	if err != nil {
		return nil, false
	}
	l.Width = vg.Points(2)
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(l)
	leg.Add("ideal (linear) p/p_ref", l)
	maxY := ideal[len(ideal)-1].Y
	n := 0
	for i, c := range part.Curves {
		var xys plotter.XYs
		for _, pt := range c.Points {
			if pt.Speedup > 0 && !math.IsNaN(pt.Speedup) {
				xys = append(xys, plotter.XY{X: float64(pt.X), Y: pt.Speedup})
				maxY = math.Max(maxY, pt.Speedup)
			}
		}
		if th := linePoints(p, i, xys); th != nil {
			leg.Add(curveName(c), th...)
			n++
		}
	}
	if n == 0 {
		return nil, false
	}
	p.X.Min, p.X.Max = 0, float64(part.Values[len(part.Values)-1])+0.5
	p.Y.Min, p.Y.Max = 0, maxY*1.1
	p.X.Tick.Marker = xTicks(part)
	return withLegend(p, leg), true
}
