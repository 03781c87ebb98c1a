package htmlreport

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "abtest", Doc: (*Run).abtestDoc, Metrics: abtestMetrics})
}

// abtest is the run's results; nil when the run is not a abtest run.
func (r *Run) abtest() *results.ABTestResults {
	res, _ := r.Results.(*results.ABTestResults)
	return res
}

// abtestDoc is the page of an A/B comparison: what A and B are, the count
// of each verdict and every query's verdict with its ratio and interval
// first, then the ratio diagram with its reading and one table per cache
// mode (abtest.csv split by its column groups).
func (r *Run) abtestDoc(d *Doc) error {
	a := r.abtest()
	d.Title = "A/B comparison: " + abWorkload(a)
	d.Summary = abtestSummary(a)
	d.Warnings = append(d.Warnings, abtestWarnings(a)...)
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"abtest", "Time A / time B per query", abtestReading(a)},
	})...)
	d.Sections = append(d.Sections, Section{ID: "variants", Title: "The two variants", Table: abVariantsTable(a)})
	all := csvTable("", report.ABTestCSVTable(a))
	for _, c := range a.Caches {
		if t := cacheColumns(all, c, a.Caches); t != nil {
			t.Title = []string{fmt.Sprintf("%s cache: median ms over the pairs (A then B, interleaved); factor = A / B; improvement = (rate B - rate A) / rate A x 100; ratio_ci: %s bootstrap interval of A / B over the pairs",
				c, pctText(a.Level))}
			d.Sections = append(d.Sections, Section{ID: "table-" + c, Title: fmt.Sprintf("Every query, %s cache", c), Table: t})
		}
	}
	if t := report.ABTestEngineTable(a); t != nil {
		d.Sections = append(d.Sections, Section{ID: "enginetime", Title: "The engines' own times", Table: t})
	}
	return err
}

// abWorkload says what was compared.
func abWorkload(a *results.ABTestResults) string {
	if a.Workload == "wisconsin" {
		return fmt.Sprintf("Wisconsin queries at N=%d", a.Size)
	}
	return "your queries (--sql)"
}

// abVariantLabel is "postgres 16.4" with its session statements.
func abVariantLabel(v results.ABVariant) string {
	s := strings.TrimSpace(v.Engine + " " + v.EngineVersion)
	if len(v.Session) > 0 {
		s += " with " + strings.Join(v.Session, "; ")
	}
	return s
}

func abVariantsTable(a *results.ABTestResults) *report.Table {
	t := &report.Table{Rows: [][]string{{"variant", "engine", "version", "database", "session"}}}
	for _, v := range []results.ABVariant{a.A, a.B} {
		t.Rows = append(t.Rows, []string{v.Name, v.Engine, v.EngineVersion, v.DB, strings.Join(v.Session, "; ")})
	}
	t.Notes = []string{fmt.Sprintf("%d pairs per query, %s, results to the %s", a.Reps, countNoun(a.Warmup, "warm-up execution", "warm-up executions"), a.Destination), "order: " + a.Order}
	return t
}

// cacheColumns is the part of abtest.csv for one cache mode: the columns
// every mode shares (query, class, organisation, rows) and the mode's own,
// without their "warm_" or "cold_" prefix (caches are all the modes run).
func cacheColumns(t *report.Table, cache string, caches []string) *report.Table {
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	var keep []int
	var head []string
	for i, h := range t.Rows[0] {
		switch {
		case strings.HasPrefix(h, cache+"_"):
			keep, head = append(keep, i), append(head, strings.TrimPrefix(h, cache+"_"))
		case !hasAnyPrefix(h, caches):
			keep, head = append(keep, i), append(head, h)
		}
	}
	out := &report.Table{Rows: [][]string{head}}
	for _, row := range t.Rows[1:] {
		var r []string
		for _, i := range keep {
			if i < len(row) {
				r = append(r, row[i])
			}
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

func hasAnyPrefix(h string, caches []string) bool {
	for _, c := range caches {
		if strings.HasPrefix(h, c+"_") {
			return true
		}
	}
	return false
}
