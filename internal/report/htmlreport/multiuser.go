package htmlreport

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "multiuser", Doc: (*Run).multiuserDoc, Metrics: multiuserMetrics})
}

// multiuser is the run's results; nil when the run is not a multiuser run.
func (r *Run) multiuser() *results.MultiuserResults {
	res, _ := r.Results.(*results.MultiuserResults)
	return res
}

// multiuserDoc is the page of a multi-user throughput run (IDM Performance
// Test 1): peak thruput, T(1) and the harness's overhead first, then the
// thruput diagram with its reading, the table and every repetition.
func (r *Run) multiuserDoc(d *Doc) error {
	m := r.multiuser()
	d.Title = fmt.Sprintf("Throughput as users are added: %s", m.Engine)
	d.Summary = multiuserSummary(m)
	d.Warnings = append(d.Warnings, multiuserWarnings(m)...)
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"multiuser", "Thruput against users", multiuserReading(m)},
	})...)
	if t := csvTable(multiuserCaption(m), report.MultiuserCSVTable(m)); t != nil {
		t.Notes = append(t.Notes, "thruput = users x T(1) / T(users): 1 for one user, ideally equal to the users; organisation: "+m.Organization)
		d.Sections = append(d.Sections, Section{ID: "table", Title: "Time, per user and thruput by user count", Table: t})
	}
	if len(m.Runs) > 0 {
		d.Sections = append(d.Sections, Section{ID: "repetitions", Title: "Every repetition", Table: multiuserRunsTable(m)})
	}
	return err
}

func multiuserCaption(m *results.MultiuserResults) string {
	shape := "an exact match"
	if m.RowsPerRetrieve > 1 {
		shape = fmt.Sprintf("a range of %d rows", m.RowsPerRetrieve)
	}
	return fmt.Sprintf("%s of %d tuples; each user %d retrieves, each %s; users as %s; wall times in ms, median of %d repetitions",
		m.Table, m.Tuples, m.Retrieves, shape, m.Mode, m.Reps)
}

// multiuserRunsTable is every measurement, grouped by user count: the
// master's wall time, the fastest and slowest user's own time, and the
// rows all users fetched.
func multiuserRunsTable(m *results.MultiuserResults) *report.Table {
	t := &report.Table{Rows: [][]string{{"users", "repetition", "wall_ms", "fastest_user_ms", "slowest_user_ms", "rows"}}}
	runs := append([]results.MultiuserRun(nil), m.Runs...)
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Users < runs[j].Users })
	for _, run := range runs {
		lo, hi := "-", "-"
		if len(run.UserMS) > 0 {
			a, b := run.UserMS[0], run.UserMS[0]
			for _, u := range run.UserMS {
				a, b = min(a, u), max(b, u)
			}
			lo, hi = num(a), num(b)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(run.Users), strconv.Itoa(run.Rep), num(run.WallMS), lo, hi, strconv.FormatInt(run.Rows, 10)})
	}
	return t
}
