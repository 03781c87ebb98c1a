package report

import (
	"bytes"
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The qac run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("qac", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.QACResults)
		files := map[string][]byte{"qac.txt": QACText(res), "qac.csv": QACCSV(res)}
		if p := res.Protocol; p != nil {
			files["protocol.txt"] = []byte(p.Paragraph)
		}
		charts, err := QACChart(res)
		return withCharts(files, charts, err)
	})
}

// qacTable is the per-Q@C table: what the protocol kept and the two times.
func qacTable(r *results.QACResults) *Table {
	t := &Table{Title: []string{
		fmt.Sprintf("Query at cardinality: %s on %s %s, %d QEs per Q@C, %s cache", r.Query, r.Engine, r.EngineVersion, r.QEs, r.Cache),
		"times in ms: median [95% bootstrap interval] and relative standard deviation over the QEs the protocol kept",
	}}
	t.Rows = append(t.Rows, []string{"cardinality", "retained", "qes_kept", "measured", "measured_ci", "measured_rsd",
		"computed", "computed_ci", "computed_rsd", "fine", "fine_ci", "fine_rsd", "plan_restarts", "dropped_because"})
	for _, q := range r.QaCs {
		why := ""
		for i, d := range q.DropReasons {
			if i > 0 {
				why += "; "
			}
			why += d
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(q.Cardinality, 10), strconv.FormatBool(q.Retained),
			fmt.Sprintf("%d/%d", q.Kept, len(q.QEs)),
			ms(q.Measured.MedianMS), interval(q.Measured), rsd(q.Measured),
			ms(q.Computed.MedianMS), interval(q.Computed), rsd(q.Computed),
			ms(q.Fine.MedianMS), interval(q.Fine), rsd(q.Fine),
			strconv.Itoa(q.PlanRestarts), why})
	}
	if p := r.Protocol; p != nil {
		t.Notes = append(t.Notes, fmt.Sprintf("protocol %s: %s%% of QEs and %s%% of Q@Cs dropped; run %s", p.Version, sigDigits(p.QEsDroppedPct, 2), sigDigits(p.QaCsDroppedPct, 2), map[bool]string{true: "dirty (an experiment-wide check failed)", false: "clean"}[p.Dirty]))
		for _, v := range p.Violations {
			if v.Scope == "experiment" {
				t.Notes = append(t.Notes, "experiment-wide: "+v.Check+": "+v.Detail)
			}
		}
		for _, v := range p.PostChecks {
			t.Notes = append(t.Notes, "post check "+v.Check+" ("+v.Where+"): "+v.Detail)
		}
	}
	t.Notes = append(t.Notes, "query process: "+r.QueryProcess, "delay accounting: "+r.DelayAccounting)
	return t
}

func interval(e results.Estimate) string {
	if e.N == 0 {
		return "-"
	}
	return "[" + ms(e.LowMS) + ", " + ms(e.HighMS) + "]"
}

func rsd(e results.Estimate) string {
	if e.N == 0 {
		return "-"
	}
	return strconv.FormatFloat(e.RSD, 'f', 3, 64)
}

// qacAllTable gives the same estimates over every QE that ran, before
// the protocol's drops: how the two times spread when the checks find a
// disturbed machine and drop most executions.
func qacAllTable(r *results.QACResults) *Table {
	t := &Table{Title: []string{"Every QE that ran, before the protocol's drops (not the protocol's result: for comparing the spread of the times)"}}
	t.Rows = append(t.Rows, []string{"cardinality", "qes", "measured", "measured_rsd", "computed", "computed_rsd", "fine", "fine_rsd"})
	for _, q := range r.QaCs {
		t.Rows = append(t.Rows, []string{strconv.FormatInt(q.Cardinality, 10), strconv.Itoa(q.AllMeasured.N),
			ms(q.AllMeasured.MedianMS), rsd(q.AllMeasured), ms(q.AllComputed.MedianMS), rsd(q.AllComputed), ms(q.AllFine.MedianMS), rsd(q.AllFine)})
	}
	return t
}

// QACText is the Q@C tables as text.
func QACText(r *results.QACResults) []byte {
	var b bytes.Buffer
	qacTable(r).Text(&b)
	b.WriteByte('\n')
	qacAllTable(r).Text(&b)
	return b.Bytes()
}

// QACCSV is the Q@C table as CSV (the protocol's result).
func QACCSV(r *results.QACResults) []byte {
	return QACCSVTable(r).CSVBytes()
}

// QACCSVTable is qac.csv as a table value.
func QACCSVTable(r *results.QACResults) *Table { return qacTable(r) }

// QACChart draws time against cardinality: the medians of measured and
// computed time with their bootstrap intervals, and a dashed mark where the
// plan differs from the previous cardinality's (qac.svg, qac.png).
func QACChart(r *results.QACResults) (map[string][]byte, error) {
	p := newPlot(fmt.Sprintf("%s on %s: time against cardinality", r.Query, r.Engine), "cardinality [rows]", "time [ms]")
	leg := newLegend()
	var maxY float64
	for i, s := range []struct {
		name string
		get  func(results.QaCResult) results.Estimate
	}{
		{"measured (wall clock)", func(q results.QaCResult) results.Estimate { return q.Measured }},
		{"computed (ticks)", func(q results.QaCResult) results.Estimate { return q.Computed }},
		{"computed (fine)", func(q results.QaCResult) results.Estimate { return q.Fine }},
	} {
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, q := range r.QaCs {
			e := s.get(q)
			if e.N == 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: float64(q.Cardinality), Y: e.MedianMS})
			errs = append(errs, struct{ Low, High float64 }{e.MedianMS - e.LowMS, e.HighMS - e.MedianMS})
			maxY = max(maxY, e.HighMS)
		}
		th := linePoints(p, i, xys)
		if th == nil {
			continue
		}
		leg.Add(s.name, th...)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		if err == nil {
			eb.Color, _, _ = seriesStyle(i)
			p.Add(eb)
		}
	}
	if maxY == 0 {
		return map[string][]byte{}, nil
	}
	p.Y.Min = 0
	// Plan changes: a dashed vertical line at the first cardinality of a
	// new plan.
	for i := 1; i < len(r.QaCs); i++ {
		if r.QaCs[i].Plan != r.QaCs[i-1].Plan {
			x := float64(r.QaCs[i].Cardinality)
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: maxY * 1.05}})
			if err == nil {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				p.Add(l)
				if i == 1 || !planMarked(r, i) {
					leg.Add("plan changes", l)
				}
			}
		}
	}
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for _, q := range r.QaCs {
			ts = append(ts, plot.Tick{Value: float64(q.Cardinality), Label: strconv.FormatInt(q.Cardinality, 10)})
		}
		return ts
	})
	out := map[string][]byte{}
	err := renderChart(out, "qac", 9*vg.Inch, figH, withLegend(p, leg))
	return out, err
}

// planMarked: a plan change before i already has its legend entry.
func planMarked(r *results.QACResults, i int) bool {
	for j := 1; j < i; j++ {
		if r.QaCs[j].Plan != r.QaCs[j-1].Plan {
			return true
		}
	}
	return false
}
