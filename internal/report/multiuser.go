package report

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The multiuser run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("multiuser", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.MultiuserResults)
		charts, err := MultiuserChart(res)
		return withCharts(map[string][]byte{"multiuser.txt": MultiuserText(res), "multiuser.csv": MultiuserCSV(res)}, charts, err)
	})
}

// multiuserTable is seed 004's Table for IDM Performance Test 1: per user
// count the wall time (median of the repetitions, with their range and a
// bootstrap interval), per_user and thruput.
func multiuserTable(r *results.MultiuserResults) *Table {
	shape := "an exact match"
	if r.RowsPerRetrieve > 1 {
		shape = fmt.Sprintf("a range of %d rows", r.RowsPerRetrieve)
	}
	t := &Table{Title: []string{
		fmt.Sprintf("Multi-user throughput (IDM Performance Test 1): %s %s, %s of %d tuples, users as %s", r.Engine, r.EngineVersion, r.Table, r.Tuples, r.Mode),
		fmt.Sprintf("each user: %d retrieves, each %s on one attribute (2/3 non-clustered unique1, 1/3 clustered unique2); %d repetitions per user count", r.Retrieves, shape, r.Reps),
		"time: wall time in ms from the release of all users to the end of the last; per_user = time / users; thruput = users x T(1) / T(users)",
	}}
	t.Rows = append(t.Rows, []string{"users", "time_ms", "min_ms", "max_ms", "ci95_low_ms", "ci95_high_ms", "per_user_ms", "thruput", "ideal"})
	for _, p := range r.Points {
		t.Rows = append(t.Rows, []string{strconv.Itoa(p.Users), ms(p.MedianMS), ms(p.MinMS), ms(p.MaxMS), ms(p.CILowMS), ms(p.CIHighMS),
			optMS(p.PerUserMS), optRatio(p.Thruput), idealThruput(p.Users)})
	}
	if r.OverheadMS != nil {
		how := "not subtracted (--subtract-overhead takes it from every time)"
		if r.SubtractOverhead {
			how = "subtracted from every time above"
		}
		t.Notes = append(t.Notes, fmt.Sprintf("overhead (zero users: the master's release and join alone): %s ms, %s", sigDigits(*r.OverheadMS, 3), how))
	}
	if u, th, ok := MultiuserPeak(r); ok {
		t.Notes = append(t.Notes, fmt.Sprintf("highest thruput %s at %d users; the machine that drove them has %d CPUs", sigDigits(th, 3), u, r.CPUs))
	}
	t.Notes = append(t.Notes, "organisation: "+r.Organization)
	for _, c := range r.Retried {
		t.Notes = append(t.Notes, fmt.Sprintf("%d users repetition %d: cut short by %s, measured again after %d failed attempts (%s): %s",
			c.Users, c.Rep, c.Class, c.Attempts, ErrorCounts(c.Errors), strings.SplitN(c.Error, "\n", 2)[0]))
	}
	for _, w := range r.Warnings {
		t.Notes = append(t.Notes, "warning: "+w)
	}
	if r.Error != "" {
		t.Notes = append(t.Notes, "incomplete: "+r.Error)
	}
	return t
}

// MultiuserPeak is the user count with the highest thruput.
func MultiuserPeak(r *results.MultiuserResults) (users int, thruput float64, ok bool) {
	for _, p := range r.Points {
		if p.Thruput != nil && (!ok || *p.Thruput > thruput) {
			users, thruput, ok = p.Users, *p.Thruput, true
		}
	}
	return users, thruput, ok
}

func optMS(v *float64) string {
	if v == nil {
		return "-"
	}
	return ms(*v)
}

func optRatio(v *float64) string {
	if v == nil {
		return "-"
	}
	return sigDigits(*v, 3)
}

func idealThruput(users int) string {
	if users == 0 {
		return "-"
	}
	return strconv.Itoa(users)
}

// MultiuserText is the table as text (multiuser.txt).
func MultiuserText(r *results.MultiuserResults) []byte {
	return multiuserTable(r).TextBytes()
}

// MultiuserCSV is the table as CSV (multiuser.csv).
func MultiuserCSV(r *results.MultiuserResults) []byte {
	return MultiuserCSVTable(r).CSVBytes()
}

// MultiuserCSVTable is multiuser.csv as a table value.
func MultiuserCSVTable(r *results.MultiuserResults) *Table { return multiuserTable(r) }

// MultiuserChart draws thruput against users with the ideal line (thruput
// = users) and, as error bars, the thruput the fastest and the slowest
// repetition would give (multiuser.svg, multiuser.png). No chart without a
// thruput.
func MultiuserChart(r *results.MultiuserResults) (map[string][]byte, error) {
	var xys plotter.XYs
	var errs plotter.YErrors
	var ideal plotter.XYs
	var t1 float64
	for _, p := range r.Points {
		if p.Users == 1 {
			t1 = p.MedianMS
		}
	}
	for _, p := range r.Points {
		if p.Thruput == nil {
			continue
		}
		y := *p.Thruput
		lo, hi := y, y
		if p.MaxMS > 0 && t1 > 0 {
			lo = float64(p.Users) * t1 / p.MaxMS
		}
		if p.MinMS > 0 && t1 > 0 {
			hi = float64(p.Users) * t1 / p.MinMS
		}
		xys = append(xys, plotter.XY{X: float64(p.Users), Y: y})
		errs = append(errs, struct{ Low, High float64 }{y - lo, hi - y})
		ideal = append(ideal, plotter.XY{X: float64(p.Users), Y: float64(p.Users)})
	}
	out := map[string][]byte{}
	if len(xys) == 0 {
		return out, nil
	}
	p := newPlot(fmt.Sprintf("%s: thruput against users (%s)", r.Engine, r.Mode),
		fmt.Sprintf("users (each %d retrieves on %d tuples)", r.Retrieves, r.Tuples), "thruput = users x T(1) / T(users) [users]")
	leg := newLegend()
	leg.Add("measured (median; bars: fastest..slowest repetition)", linePoints(p, 0, xys)...)
	if l, err := plotter.NewLine(ideal); err == nil {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		leg.Add("ideal (thruput = users)", l)
	}
	if eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{xys, errs}); err == nil {
		eb.Color, _, _ = seriesStyle(0)
		p.Add(eb)
	}
	// The machine's CPUs: where a CPU-bound engine's thruput can stop
	// growing when users and server share the machine.
	if last := xys[len(xys)-1].X; r.CPUs > 1 && float64(r.CPUs) <= last {
		c := float64(r.CPUs)
		if l, err := plotter.NewLine(plotter.XYs{{X: c, Y: 0}, {X: c, Y: last}}); err == nil {
			l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
			p.Add(l)
			leg.Add(fmt.Sprintf("CPUs of the machine (%d)", r.CPUs), l)
		}
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for _, q := range xys {
			ts = append(ts, plot.Tick{Value: q.X, Label: strconv.FormatFloat(q.X, 'f', 0, 64)})
		}
		return ts
	})
	err := renderChart(out, "multiuser", 9*vg.Inch, figH, withLegend(p, leg))
	return out, err
}
