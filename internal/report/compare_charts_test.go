package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// svgFacts is what the tests read back from a chart: its texts, and per
// colour its curves (paths of two or more segments drawn 1.5 wide, as
// linePoints draws them) and its filled shapes (bars, filled glyphs and
// their legend thumbnails).
type svgFacts struct {
	texts  []string
	curves map[string]int
	fills  map[string]int
}

func readSVG(t *testing.T, b []byte) svgFacts {
	t.Helper()
	f := svgFacts{curves: map[string]int{}, fills: map[string]int{}}
	d := xml.NewDecoder(bytes.NewReader(b))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			inText = e.Name.Local == "text"
			if e.Name.Local != "path" {
				continue
			}
			var path, style string
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "d":
					path = a.Value
				case "style":
					style = a.Value
				}
			}
			for _, part := range strings.Split(style, ";") {
				if c, ok := strings.CutPrefix(part, "fill:"); ok && c != "none" && c != "#FFFFFF" {
					f.fills[c]++
				}
				if c, ok := strings.CutPrefix(part, "stroke:"); ok && strings.Contains(style, "stroke-width:1.5") && strings.Count(path, "L") >= 2 {
					f.curves[c]++
				}
			}
		case xml.CharData:
			if inText {
				if s := strings.TrimSpace(string(e)); s != "" {
					f.texts = append(f.texts, s)
				}
			}
		case xml.EndElement:
			inText = false
		}
	}
	return f
}

// runColour is series i's colour as the SVG writes it.
func runColour(i int) string {
	r, g, b, _ := plotutil.Color(i).RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// checkChart checks that name.svg and name.png are there and returns the
// SVG's facts; with DBGAUGE_CHART_DIR set it writes them there to look at.
func checkChart(t *testing.T, files map[string][]byte, name string) svgFacts {
	t.Helper()
	svg, pngb := files[name+".svg"], files[name+".png"]
	if len(svg) == 0 || len(pngb) == 0 {
		t.Fatalf("%s: svg %d bytes, png %d bytes (files %v)", name, len(svg), len(pngb), keys(files))
	}
	if _, err := png.Decode(bytes.NewReader(pngb)); err != nil {
		t.Errorf("%s.png: %v", name, err)
	}
	if dir := os.Getenv("DBGAUGE_CHART_DIR"); dir != "" {
		for n, b := range files {
			os.WriteFile(dir+"/"+n, b, 0o644)
		}
	}
	return readSVG(t, svg)
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// fasterSweep is r with every rate 1.5 times higher and every residence
// time 0.6 times as long: the other run of a comparison.
func fasterSweep(r *results.DSBenchResults) *results.DSBenchResults {
	o := *r
	o.Scales = slices.Clone(r.Scales)
	for i := range o.Scales {
		s := &o.Scales[i]
		s.MedianTPS, s.MinTPS, s.MaxTPS = 1.5*s.MedianTPS, 1.5*s.MinTPS, 1.5*s.MaxTPS
		s.Residence = slices.Clone(s.Residence)
		for k := range s.Residence {
			s.Residence[k].Micros *= 0.6
		}
	}
	return &o
}

func TestCompareRateChart(t *testing.T) {
	a := syntheticDSBench(t)
	b := fasterSweep(a)
	b.Scales = b.Scales[:3] // a run that stopped early still has its curve
	labels := []string{"A: on (baseline)", "B: off"}
	files, err := CompareRateChart(labels, []*results.DSBenchResults{a, b})
	if err != nil {
		t.Fatal(err)
	}
	f := checkChart(t, files, "compare_rate")
	for i, l := range labels {
		if !slices.Contains(f.texts, l) {
			t.Errorf("legend lacks %q: %v", l, f.texts)
		}
		if f.curves[runColour(i)] != 1 {
			t.Errorf("run %d: %d curves in its colour, want 1 (%v)", i, f.curves[runColour(i)], f.curves)
		}
	}
	if n := f.curves[runColour(2)]; n != 0 {
		t.Errorf("%d curves of a third run", n)
	}
	for _, scale := range []string{"1", "10", "100", "1000"} {
		if !slices.Contains(f.texts, scale) {
			t.Errorf("scale %s not on the axis: %v", scale, f.texts)
		}
	}
}

func TestCompareLatencyChart(t *testing.T) {
	a := syntheticDSBench(t) // 4 scales: 2 x 2 panels
	b := fasterSweep(a)
	labels := []string{"A: sqlite (baseline)", "B: duckdb"}
	files, err := CompareLatencyChart(labels, []*results.DSBenchResults{a, b})
	if err != nil {
		t.Fatal(err)
	}
	f := checkChart(t, files, "compare_latency")
	for i, l := range labels {
		if c := strings.Join(f.texts, "|"); strings.Count(c, l) != 1 {
			t.Errorf("legend has %q %d times, want once", l, strings.Count(c, l))
		}
		if n := f.curves[runColour(i)]; n != 4 {
			t.Errorf("run %d: %d curves, want one per panel (4)", i, n)
		}
	}
	for _, want := range []string{"scale 1: residence time", "scale 1000: residence time", "0%", "90%", "99%"} {
		if !slices.Contains(f.texts, want) {
			t.Errorf("no %q in %v", want, f.texts)
		}
	}

	// open loop in every run: the response times; one scale: one panel
	for _, r := range []*results.DSBenchResults{a, b} {
		r.Scales = r.Scales[:1]
		r.Scales[0].Response = r.Scales[0].Residence
	}
	files, err = CompareLatencyChart(labels, []*results.DSBenchResults{a, b})
	if err != nil {
		t.Fatal(err)
	}
	f = checkChart(t, files, "compare_latency")
	if !slices.Contains(f.texts, "response time distribution at scale 1 (percentile plot)") || f.curves[runColour(0)] != 1 {
		t.Errorf("open loop: texts %v, curves %v", f.texts, f.curves)
	}
	// nothing to draw: no chart, no error
	if files, err := CompareLatencyChart(labels, []*results.DSBenchResults{{}, {}}); err != nil || len(files) != 0 {
		t.Errorf("no scales: %v, %v", keys(files), err)
	}
}

func TestPercentileTicks(t *testing.T) {
	var labels []string
	for _, tk := range (percentileTicks{}).Ticks(1, 1e5) {
		labels = append(labels, tk.Label)
	}
	want := []string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
}

// wisconsinRun is a Wisconsin result with the given queries' repetitions
// (ms) at N=1000 under heap; a query with no times is not applicable.
func wisconsinRun(engine string, times map[int][]float64) *results.WisconsinResults {
	r := &results.WisconsinResults{Header: results.Header{Experiment: "wisconsin", Engine: engine}, Sizes: []int64{1000}}
	for _, q := range []int{1, 3, 9} {
		qr := results.QueryResult{Query: q, Size: 1000, Organization: "heap", Destination: results.DestRelation, Status: results.StatusNotApplicable}
		if ts := times[q]; len(ts) > 0 {
			qr.Status, qr.SamplesMS, qr.ElapsedMS, qr.Reps = results.StatusOK, ts, stats.Summarize(ts), len(ts)
		}
		r.Queries = append(r.Queries, qr)
	}
	return r
}

func TestCompareQueryChart(t *testing.T) {
	a := wisconsinRun("sqlite", map[int][]float64{1: {2, 2.5, 3}, 3: {0.2, 0.3, 0.25}, 9: {40, 45, 50}})
	b := wisconsinRun("duckdb", map[int][]float64{1: {1, 1.2, 1.1}, 3: {0.5, 0.6, 0.55}}) // Q9 not applicable
	labels := []string{"A: sqlite (baseline)", "B: duckdb"}
	files, err := CompareQueryChart("q", labels, []*results.WisconsinResults{a, b}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	f := checkChart(t, files, "q")
	// one bar per query the run measured, and one legend square
	if n := f.fills[runColour(0)]; n != 3+1 {
		t.Errorf("run A: %d filled shapes, want 3 bars and the legend's", n)
	}
	if n := f.fills[runColour(1)]; n != 2+1 {
		t.Errorf("run B: %d filled shapes, want 2 bars and the legend's", n)
	}
	for _, want := range append([]string{"Q1", "Q3", "Q9"}, labels...) {
		if !slices.Contains(f.texts, want) {
			t.Errorf("no %q in %v", want, f.texts)
		}
	}
	if files, err := CompareQueryChart("q", labels, []*results.WisconsinResults{a, b}, 2000); err != nil || len(files) != 0 {
		t.Errorf("a size no run has: %v, %v", keys(files), err)
	}
}

func TestQueryLabels(t *testing.T) {
	keys := []QueryKey{
		{Query: 1, Organization: "heap", Destination: "relation"},
		{Query: 1, Organization: "heap", Destination: "count"},
		{Query: 7, Organization: "clustered", Destination: "client"},
		{Query: 7, Organization: "hash", Destination: "client"},
		{Query: 9, Organization: "heap", Destination: "relation"},
	}
	want := []string{"Q1 relation", "Q1 count", "Q7 clustered", "Q7 hash", "Q9"}
	if got := QueryLabels(keys); !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

func TestCompareRatioChart(t *testing.T) {
	nan := math.NaN()
	series := []RatioSeries{
		{Label: "B", Ratio: []float64{0.5, 2, 1.1, nan}, Low: []float64{0.4, 1.5, nan, nan}, High: []float64{0.6, 2.5, nan, nan}},
		{Label: "C", Ratio: []float64{1, nan, 3, 0.9}, Low: []float64{0.9, nan, nan, 0.8}, High: []float64{1.1, nan, nan, 1.0}},
	}
	files, err := CompareRatioChart("r", "ratios", "ratio to A", []string{"tps 1", "tps 2", "load", "p99 1"}, series)
	if err != nil {
		t.Fatal(err)
	}
	f := checkChart(t, files, "r")
	// a filled point per finite ratio, and the legend's; colour 0 is the
	// baseline's, which has no ratio of its own
	if n := f.fills[runColour(1)]; n != 3+1 {
		t.Errorf("B: %d points, want 3 and the legend's", n)
	}
	if n := f.fills[runColour(2)]; n != 3+1 {
		t.Errorf("C: %d points, want 3 and the legend's", n)
	}
	if f.fills[runColour(0)] != 0 {
		t.Errorf("the baseline's colour is used: %v", f.fills)
	}
	empty := []RatioSeries{{Label: "B", Ratio: []float64{nan}, Low: []float64{nan}, High: []float64{nan}}}
	if files, err := CompareRatioChart("r", "ratios", "", []string{"x"}, empty); err != nil || len(files) != 0 {
		t.Errorf("no ratio: %v, %v", keys(files), err)
	}
}

func TestCompareLinesChart(t *testing.T) {
	series := []CompareSeries{
		{Label: "A: pg", X: []float64{1, 2, 4, 8}, Y: []float64{10, 19, 35, 60}, Low: []float64{9, 18, 30, 50}, High: []float64{11, 20, 40, 70}},
		// a zero point (a user count that failed) is left off the log axes
		{Label: "B: mariadb", X: []float64{1, 2, 4, 8}, Y: []float64{12, 0, 30, 40}, Low: []float64{11, 0, 29, 39}, High: []float64{13, 0, 31, 41}},
	}
	files, err := CompareLinesChart("l", "thruput", "users", "scripts/s", series)
	if err != nil {
		t.Fatal(err)
	}
	f := checkChart(t, files, "l")
	if f.curves[runColour(0)] != 1 || f.curves[runColour(1)] != 1 {
		t.Errorf("curves %v, want one per run", f.curves)
	}
	if files, err := CompareLinesChart("l", "t", "x", "y", []CompareSeries{{Label: "A", X: []float64{1}, Y: []float64{0}}}); err != nil || len(files) != 0 {
		t.Errorf("nothing positive: %v, %v", keys(files), err)
	}
}
