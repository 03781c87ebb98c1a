package htmlreport

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestBarsSVG(t *testing.T) {
	b := Bars{Title: "t <&>", Axis: "ms", Rows: []Bar{
		{Label: "Q1", Value: 2, Text: "2.00 ms"},
		{Label: "Q2 <heap>", Value: 0.5, Text: "0.500 ms"},
		{Label: "Q3", Text: "MISMATCH"},
	}}
	svg := string(b.SVG())
	rects := dataRects(svg)
	if len(rects) != 2 || rects[0] != 2 || rects[1] != 0.5 {
		t.Errorf("data-value rects %v, want [2 0.5]", rects)
	}
	if n := strings.Count(svg, "<title>"); n != 3 {
		t.Errorf("%d titles, want one per row (3)", n)
	}
	for _, want := range []string{"MISMATCH", "Q2 &lt;heap&gt;", "t &lt;&amp;&gt;", `<svg xmlns="http://www.w3.org/2000/svg"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q:\n%s", want, svg)
		}
	}
	// the longer bar is 4 times the shorter on a linear axis from 0
	w := regexp.MustCompile(`<rect [^>]*width="([0-9.]+)"`).FindAllStringSubmatch(svg, -1)
	w0, _ := strconv.ParseFloat(w[0][1], 64)
	w1, _ := strconv.ParseFloat(w[1][1], 64)
	if math.Abs(w0/w1-4) > 0.05 {
		t.Errorf("bar widths %v and %v, want a ratio of 4", w0, w1)
	}
	long := strings.Repeat("x", 60)
	svg = string(Bars{Rows: []Bar{{Label: long, Value: 1, Text: "1 ms"}}}.SVG())
	if strings.Contains(svg, ">"+long+"<") || !strings.Contains(svg, "…") || !strings.Contains(svg, "<title>"+long+": 1 ms</title>") {
		t.Errorf("a long label is not shortened on the diagram, or not whole in its tooltip:\n%s", svg)
	}
	if (Bars{}).SVG() != "" {
		t.Error("a diagram without rows is drawn")
	}
}

func TestLogScaleFits(t *testing.T) {
	for _, c := range []struct {
		values []float64
		want   bool
	}{
		{[]float64{1, 30}, false},
		{[]float64{1, 31}, true},
		{[]float64{0, 5, 100}, false}, // zero is left out: 5 to 100 is 20 times
		{[]float64{0, 0}, false},
		{nil, false},
	} {
		if got := LogScaleFits(c.values); got != c.want {
			t.Errorf("LogScaleFits(%v) = %v, want %v", c.values, got, c.want)
		}
	}
}

func TestBarAxis(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{0.3, 0.5}, {7, 10}, {20, 20}, {21, 50}, {0.011, 0.02}} {
		if got := niceStep(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	lin := newBarAxis([]float64{3, 7}, false) // step 2 (7/5 = 1.4 -> 2), up to 8
	if lin.hi != 8 || len(lin.ticks) != 5 || lin.pos(4) != 0.5 {
		t.Errorf("linear axis %+v, pos(4) = %v", lin, lin.pos(4))
	}
	lg := newBarAxis([]float64{1, 1000}, true) // from 0.5 to 1050: ticks 1, 10, 100, 1000
	if len(lg.ticks) != 4 || lg.ticks[0] != 1 || lg.ticks[3] != 1000 || lg.pos(lg.lo) != 0 || math.Abs(lg.pos(lg.hi)-1) > 1e-12 {
		t.Errorf("log axis %+v", lg)
	}
	if got := tickLabel(5 * math.Pow(10, -2)); got != "0.05" {
		t.Errorf("tick label %q, want 0.05", got)
	}
}

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{1234.6, "1235"}, {123.4, "123"}, {12.34, "12.3"}, {1.234, "1.23"}, {0.012345, "0.0123"}, {0, "0"}, {-2.5, "-2.50"}} {
		if got := num(c.v); got != c.want {
			t.Errorf("num(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{25, "25"}, {7.8, "7.8"}, {100, "100"}, {0.05, "0.05"}, {12.34, "12.3"}} {
		if got := pct(c.v); got != c.want {
			t.Errorf("pct(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// Helpers of the pages' tests.

// dataRects are the values of the bars (<rect data-value>) of an SVG.
func dataRects(svg string) []float64 {
	var out []float64
	for _, m := range regexp.MustCompile(`<rect [^>]*data-value="([^"]+)"`).FindAllStringSubmatch(svg, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		out = append(out, v)
	}
	return out
}

// colouredPaths counts the paths of a gonum chart drawn in a colour: its
// frame, axes, ticks and grid are black, white or grey, its series (the
// data, and their legend thumbnails, drawn only for a series with points)
// coloured.
func colouredPaths(svg string) int {
	n := 0
	for _, m := range regexp.MustCompile(`<path [^>]*(?:stroke|fill):#([0-9A-Fa-f]{6})`).FindAllStringSubmatch(svg, -1) {
		if c := strings.ToUpper(m[1]); c[0:2] != c[2:4] || c[2:4] != c[4:6] {
			n++
		}
	}
	return n
}

// externalRef finds an address in the page other than an SVG namespace.
var externalRef = regexp.MustCompile(`https?://[^"'\s<>]*`)

// checkPage checks what every page must be: self-contained (no address
// but the SVG namespaces), every diagram an inline <svg> with data in it
// and a reading under it.
func checkPage(t *testing.T, d *Doc) string {
	t.Helper()
	b, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, loc := range externalRef.FindAllStringIndex(page, -1) {
		before := page[max(0, loc[0]-16):loc[0]]
		if !strings.HasSuffix(before, `xmlns="`) && !strings.HasSuffix(before, `xmlns:xlink="`) {
			t.Errorf("page refers to %s", page[loc[0]:loc[1]])
		}
	}
	for _, s := range d.Sections {
		if s.SVG == "" {
			continue
		}
		svg := string(s.SVG)
		if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(svg, "</svg>") {
			t.Errorf("diagram %q is not one inline <svg>", s.Title)
		}
		if len(dataRects(svg)) == 0 && colouredPaths(svg) < 3 {
			t.Errorf("diagram %q holds no data", s.Title)
		}
		if strings.TrimSpace(s.Reading) == "" {
			t.Errorf("diagram %q has no reading", s.Title)
		}
		if !strings.Contains(page, svg) {
			t.Errorf("diagram %q is not in the page", s.Title)
		}
	}
	return page
}

// docOf builds the page of a run directory.
func docOf(t *testing.T, dir string) *Doc {
	t.Helper()
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Doc()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// headline finds the headline labelled label.
func headline(t *testing.T, d *Doc, label string) Headline {
	t.Helper()
	for _, h := range d.Summary {
		if h.Label == label {
			return h
		}
	}
	var labels []string
	for _, h := range d.Summary {
		labels = append(labels, h.Label)
	}
	t.Fatalf("no headline %q among %q", label, labels)
	return Headline{}
}

// checkHeadlines checks the value of each headline, by label.
func checkHeadlines(t *testing.T, d *Doc, want map[string]string) {
	t.Helper()
	for label, v := range want {
		if got := headline(t, d, label).Value; got != v {
			t.Errorf("headline %q = %q, want %q", label, got, v)
		}
	}
}

// checkWarnedOnce checks that each of wants is in exactly one warning.
func checkWarnedOnce(t *testing.T, d *Doc, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if warned(d, w) != 1 {
			t.Errorf("no warning %q in %q", w, d.Warnings)
		}
	}
}

// checkBars checks that the bars of all the page's diagrams carry exactly
// the values want (in any order; want is sorted in place).
func checkBars(t *testing.T, d *Doc, want []float64, what string) {
	t.Helper()
	var bars []float64
	for _, s := range d.Sections {
		bars = append(bars, dataRects(string(s.SVG))...)
	}
	slices.Sort(bars)
	slices.Sort(want)
	if !slices.Equal(bars, want) {
		t.Errorf("bars %v, want %s %v", bars, what, want)
	}
}

// warned counts the warnings containing s.
func warned(d *Doc, s string) int {
	n := 0
	for _, w := range d.Warnings {
		if strings.Contains(w, s) {
			n++
		}
	}
	return n
}

// readResults decodes dir/results.json into v.
func readResults(t *testing.T, dir string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// withResults copies the manifest of dir into a new run directory and
// writes there the results v (read from dir, then changed by the test).
func withResults(t *testing.T, dir string, v any) string {
	t.Helper()
	out := t.TempDir()
	if m, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		if err := os.WriteFile(filepath.Join(out, "manifest.json"), m, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "results.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
