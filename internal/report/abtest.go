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
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The abtest run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("abtest", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.ABTestResults)
		charts, err := ABTestChart(res)
		return withCharts(map[string][]byte{"abtest.txt": ABTestText(res), "abtest.csv": ABTestCSV(res)}, charts, err)
	})
}

// variantLabel is "postgres 16.4 (SET x = 0)" or its URL when the two
// variants differ by where they connect.
func variantLabel(v results.ABVariant, other results.ABVariant) string {
	s := v.Engine + " " + v.EngineVersion
	if v.DB != other.DB {
		s += " at " + v.DB
	}
	if len(v.Session) > 0 {
		s += " with " + strings.Join(v.Session, "; ")
	}
	return s
}

// abTable is the per-query table with one group of columns per cache mode
// (seed 004 Test 5 puts warm and cold side by side). For CSV the interval
// is two numeric columns.
func abTable(r *results.ABTestResults, forCSV bool) *Table {
	what := "your queries (--sql)"
	if r.Workload == "wisconsin" {
		what = fmt.Sprintf("Wisconsin queries at N=%d", r.Size)
	}
	level := sigDigits(100*r.Level, 2) + "%"
	t := &Table{Title: []string{
		"A/B comparison: " + what + fmt.Sprintf(", %d pairs per query (A then B, interleaved), results to the %s", r.Reps, r.Destination),
		"A: " + variantLabel(r.A, r.B),
		"B: " + variantLabel(r.B, r.A),
		"times: median ms; diff = A - B; factor = A / B; rate = 1 / time [1/s]; improvement = (rate B - rate A) / rate A x 100;",
		"ratio_ci: " + level + " bootstrap interval of A / B over the pairs; p: Wilcoxon signed-rank test of the pairs;",
		"a verdict is significant when the interval excludes 1 and p < " + strconv.FormatFloat(math.Round((1-r.Level)*1e4)/1e4, 'g', -1, 64) + " (at least 6 pairs are needed)",
	}}
	head := []string{"query", "class", "organization", "rows"}
	for _, c := range r.Caches {
		cols := []string{"a_ms", "b_ms", "diff_ms", "factor", "rate_a", "rate_b", "improvement_pct", "ratio_ci", "p", "verdict", "status"}
		if forCSV {
			cols = []string{"a_ms", "b_ms", "diff_ms", "factor", "rate_a_per_s", "rate_b_per_s", "improvement_pct", "ratio_ci_low", "ratio_ci_high", "p", "verdict", "pairs", "status"}
		}
		for _, col := range cols {
			head = append(head, c+"_"+col)
		}
	}
	t.Rows = append(t.Rows, head)
	for _, q := range r.Queries {
		rows := "-"
		if q.ExpectedRows >= 0 {
			rows = strconv.FormatInt(q.ExpectedRows, 10)
		} else if len(q.Runs) > 0 {
			rows = strconv.FormatInt(q.Runs[0].Rows, 10)
		}
		row := []string{q.Label, dash(q.Class), dash(q.Organization), rows}
		for _, c := range r.Caches {
			row = append(row, abCells(q.Run(c), forCSV)...)
		}
		t.Rows = append(t.Rows, row)
	}
	for _, c := range r.Caches {
		t.Notes = append(t.Notes, abTally(r, c))
	}
	for _, q := range r.Queries {
		for _, run := range q.Runs {
			if run.Reason != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s %s: %s: %s", q.Label, run.Cache, run.Status, run.Reason))
			}
		}
	}
	if cf := r.CacheFlush; cf != nil {
		for _, nd := range cf.NotDone {
			t.Notes = append(t.Notes, "cold cache: not emptied: "+nd)
		}
	}
	return t
}

func abCells(run *results.ABCacheRun, forCSV bool) []string {
	n := 11
	if forCSV {
		n = 13
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "-"
	}
	if run == nil {
		out[n-1] = "not run"
		return out
	}
	out[n-1] = run.Status
	c := run.Comparison
	if c == nil {
		return out
	}
	cells := []string{ms(c.MedianA), ms(c.MedianB), signedMS(c.Difference), sigDigits(c.Factor, 3),
		sigDigits(run.RateAPerS, 3), sigDigits(run.RateBPerS, 3), sigDigits(c.ImprovementPct, 3)}
	if forCSV {
		cells = append(cells, sigDigits(c.Low, 4), sigDigits(c.High, 4), sigDigits(c.P, 3), c.Verdict, strconv.Itoa(c.Pairs))
	} else {
		cells = append(cells, "["+sigDigits(c.Low, 3)+", "+sigDigits(c.High, 3)+"]", sigDigits(c.P, 2), c.Verdict)
	}
	copy(out, cells)
	return out
}

// abTally counts the verdicts of one cache mode.
func abTally(r *results.ABTestResults, cache string) string {
	count := map[string]int{}
	var bq, aq []string
	for _, q := range r.Queries {
		run := q.Run(cache)
		if run == nil || run.Comparison == nil {
			count["not measured"]++
			continue
		}
		v := run.Comparison.Verdict
		count[v]++
		switch v {
		case stats.VerdictBFaster:
			bq = append(bq, q.Label)
		case stats.VerdictAFaster:
			aq = append(aq, q.Label)
		}
	}
	list := func(qs []string) string {
		if len(qs) == 0 {
			return ""
		}
		return " (" + strings.Join(qs, " ") + ")"
	}
	s := fmt.Sprintf("%s: B faster on %d%s, A faster on %d%s, no significant difference on %d",
		cache, count[stats.VerdictBFaster], list(bq), count[stats.VerdictAFaster], list(aq), count[stats.VerdictNoDiff])
	if n := count[stats.VerdictTooFew]; n > 0 {
		s += fmt.Sprintf(", too few pairs on %d", n)
	}
	if n := count["not measured"]; n > 0 {
		s += fmt.Sprintf(", not measured %d", n)
	}
	return s + " of " + strconv.Itoa(len(r.Queries)) + " queries"
}

func signedMS(v float64) string {
	if v < 0 {
		return "-" + ms(-v)
	}
	return ms(v)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ABTestText is the A/B table as text.
func ABTestText(r *results.ABTestResults) []byte {
	var b bytes.Buffer
	abTable(r, false).Text(&b)
	if t := ABTestEngineTable(r); t != nil {
		t.Text(&b)
	}
	return b.Bytes()
}

// ABTestCSV is the A/B table as CSV.
func ABTestCSV(r *results.ABTestResults) []byte {
	return ABTestCSVTable(r).CSVBytes()
}

// ABTestCSVTable is abtest.csv as a table value: every pair's times.
func ABTestCSVTable(r *results.ABTestResults) *Table { return abTable(r, true) }

// ABTestChart draws, per query, the ratio time A / time B with its
// interval, one series per cache mode side by side, and the line at 1:
// a query whose bar misses the line differs significantly
// (abtest.svg, abtest.png).
func ABTestChart(r *results.ABTestResults) (map[string][]byte, error) {
	p := newPlot("A/B: time A / time B per query (above 1: B faster)", "query", fmt.Sprintf("time A / time B [ratio] (median, %s%% interval)", sigDigits(100*r.Level, 2)))
	leg := newLegend()
	lo, hi := 1.0, 1.0
	width := 0.5 / float64(max(len(r.Caches), 1))
	for ci, cache := range r.Caches {
		var xys plotter.XYs
		var errs plotter.YErrors
		for i, q := range r.Queries {
			run := q.Run(cache)
			if run == nil || run.Comparison == nil || math.IsNaN(run.Comparison.Low) {
				continue
			}
			c := run.Comparison
			x := float64(i) + (float64(ci)-float64(len(r.Caches)-1)/2)*width
			xys = append(xys, plotter.XY{X: x, Y: c.Factor})
			errs = append(errs, struct{ Low, High float64 }{c.Factor - c.Low, c.High - c.Factor})
			lo, hi = math.Min(lo, c.Low), math.Max(hi, c.High)
		}
		if len(xys) == 0 {
			continue
		}
		col, _, shape := seriesStyle(ci)
		s, err := plotter.NewScatter(xys)
		if err != nil {
			continue
		}
		s.Color, s.Shape, s.Radius = col, shape, vg.Points(3)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		if err != nil {
			continue
		}
		eb.Color, eb.LineStyle.Width, eb.CapWidth = col, vg.Points(1.5), vg.Points(6)
		p.Add(eb, s)
		leg.Add(cache, s)
	}
	if len(r.Queries) == 0 {
		return map[string][]byte{}, nil
	}
	one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(r.Queries)) - 0.5, Y: 1}})
	if err == nil {
		one.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		one.Width = vg.Points(1)
		p.Add(one)
		leg.Add("no difference (1)", one)
	}
	pad := (hi - lo) * 0.08
	if pad == 0 {
		pad = 0.05
	}
	p.Y.Min, p.Y.Max = math.Max(0, lo-pad), hi+pad
	p.X.Min, p.X.Max = -0.5, float64(len(r.Queries))-0.5
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for i, q := range r.Queries {
			ts = append(ts, plot.Tick{Value: float64(i), Label: q.Label})
		}
		return ts
	})
	out := map[string][]byte{}
	w := vg.Length(math.Max(7, 2+0.6*float64(len(r.Queries)))) * vg.Inch
	err = renderChart(out, "abtest", w, figH, withLegend(p, leg))
	return out, err
}
