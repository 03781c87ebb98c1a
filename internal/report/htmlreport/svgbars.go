package htmlreport

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small hand-written horizontal bar diagram: one row per item, its label
// on the left, its bar, its value printed at the bar's end. gonum/plot has
// no horizontal bars with per-row labels that stay readable at 30-90 rows,
// and a bar diagram is simple enough to write as SVG directly. Every bar is
// a <rect> carrying its value in data-value and a <title> (the tooltip), so
// that a test or a browser can find the data in the page.

// Bar is one row of a bar diagram.
type Bar struct {
	Label string  // left of the bar, e.g. "Q9 heap relation"
	Value float64 // the bar's length; a row with Value <= 0 has no bar, only Text
	Text  string  // printed at the bar's end, e.g. "12.3 ms" or "MISMATCH"
	Title string  // the tooltip; Label and Text when empty
}

// Bars is a horizontal bar diagram.
type Bars struct {
	Title string // above the diagram
	Axis  string // under the value axis, e.g. "median elapsed time [ms] (log scale)"
	Rows  []Bar
	// Log draws the value axis logarithmically; LogScaleFits says when a
	// log axis reads better.
	Log bool
}

// LogScaleFits says whether values spread over so many orders of magnitude
// that bars on a linear axis would leave the small ones invisible: the
// largest positive value is more than 30 times the smallest.
func LogScaleFits(values []float64) bool {
	lo, hi := positiveRange(values)
	return lo > 0 && hi/lo > 30
}

func positiveRange(values []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, v := range values {
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return 0, 0
	}
	return lo, hi
}

// Layout of the diagram, in SVG user units (about pixels at full width).
const (
	barsWidth   = 900.0
	barsRowH    = 18.0
	barsTitleH  = 26.0
	barsAxisH   = 40.0
	barsCharW   = 6.6 // average width of a 12px sans-serif character
	barsTextW   = 80.0
	barsPadding = 8.0
	barsColour  = "#4a78b0"
	// barsLabelMax is the widest the label column gets; a longer label is
	// shortened on the diagram (its tooltip keeps it whole).
	barsLabelMax = barsWidth / 3
)

// fitLabel shortens a label that would not fit the label column.
func fitLabel(l string) string {
	n := int(math.Floor((barsLabelMax - barsPadding) / barsCharW))
	if utf8.RuneCountInString(l) <= n {
		return l
	}
	return string([]rune(l)[:n-1]) + "…"
}

// SVG renders the diagram as inline SVG markup; nothing when it has no row.
func (c Bars) SVG() template.HTML {
	if len(c.Rows) == 0 {
		return ""
	}
	labelW := 0.0
	values := make([]float64, len(c.Rows))
	for i, r := range c.Rows {
		labelW = math.Max(labelW, float64(utf8.RuneCountInString(r.Label))*barsCharW)
		values[i] = r.Value
	}
	labelW = math.Min(labelW+barsPadding, barsLabelMax)
	x0, x1 := labelW+barsPadding, barsWidth-barsTextW
	ax := newBarAxis(values, c.Log)
	height := barsTitleH + float64(len(c.Rows))*barsRowH + barsAxisH
	top := barsTitleH

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" font-family="sans-serif" font-size="12" role="img">`,
		f1(barsWidth), f1(height), f1(barsWidth), f1(height))
	fmt.Fprintf(&b, `<text x="%s" y="17" font-size="14" font-weight="bold">%s</text>`, f1(barsPadding), esc(c.Title))
	// grid lines and tick labels first, under the bars
	bottom := top + float64(len(c.Rows))*barsRowH
	for _, t := range ax.ticks {
		x := x0 + ax.pos(t)*(x1-x0)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`, f1(x), f1(top), f1(x), f1(bottom))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#333">%s</text>`, f1(x), f1(bottom+14), tickLabel(t))
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#888"/>`, f1(x0), f1(top), f1(x0), f1(bottom))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#333">%s</text>`, f1((x0+x1)/2), f1(bottom+32), esc(c.Axis))
	for i, r := range c.Rows {
		y := top + float64(i)*barsRowH
		mid := y + barsRowH/2 + 4
		title := r.Title
		if title == "" {
			title = r.Label + ": " + r.Text
		}
		b.WriteString(`<g>`)
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, f1(labelW), f1(mid), esc(fitLabel(r.Label)))
		end := x0
		if r.Value > 0 && !math.IsInf(r.Value, 0) && !math.IsNaN(r.Value) {
			w := math.Max(ax.pos(r.Value)*(x1-x0), 1)
			end = x0 + w
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" data-value="%s"><title>%s</title></rect>`,
				f1(x0), f1(y+3), f1(w), f1(barsRowH-6), barsColour, strconv.FormatFloat(r.Value, 'g', -1, 64), esc(title))
		} else {
			// no bar: the row still says what happened (MISMATCH, ERROR, n/a)
			fmt.Fprintf(&b, `<title>%s</title>`, esc(title))
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" fill="#1a1a1a">%s</text></g>`, f1(end+4), f1(mid), esc(r.Text))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// barAxis maps values to [0, 1] along the bars.
type barAxis struct {
	log    bool
	lo, hi float64 // the axis' ends (lo is 0 on a linear axis)
	ticks  []float64
}

func newBarAxis(values []float64, log bool) barAxis {
	lo, hi := positiveRange(values)
	if hi == 0 {
		return barAxis{lo: 0, hi: 1}
	}
	if !log {
		step := niceStep(hi / 5)
		a := barAxis{lo: 0, hi: math.Ceil(hi/step) * step}
		for t := 0.0; t <= a.hi*1.0001; t += step {
			a.ticks = append(a.ticks, t)
		}
		return a
	}
	// the smallest bar keeps a visible length: the axis starts below it
	a := barAxis{log: true, lo: lo / 2, hi: hi * 1.05}
	few := math.Log10(a.hi/a.lo) < 3
	for e := math.Floor(math.Log10(a.lo)); e <= math.Ceil(math.Log10(a.hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			if m != 1 && !few {
				continue
			}
			if t := m * math.Pow(10, e); t >= a.lo && t <= a.hi {
				a.ticks = append(a.ticks, t)
			}
		}
	}
	return a
}

func (a barAxis) pos(v float64) float64 {
	if a.log {
		return math.Max(0, math.Log10(v/a.lo)/math.Log10(a.hi/a.lo))
	}
	return v / a.hi
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// num writes a measured value for people: no exponent, and as many
// decimals as a value of its size deserves (1234, 123, 12.3, 1.23, 0.123).
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case a >= 100 || a == 0:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	// below 1: three significant digits
	d := 2 - int(math.Floor(math.Log10(a)))
	return strconv.FormatFloat(v, 'f', d, 64)
}

// pct writes a percentage as num does, without trailing zeros: "25",
// "7.8", "0.05".
func pct(v float64) string {
	s := num(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// tickLabel writes an axis tick (1, 2 or 5 times a power of ten) with no
// trailing zeros and no float noise: "0.05", "200".
func tickLabel(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func esc(s string) string { return template.HTMLEscapeString(s) }
