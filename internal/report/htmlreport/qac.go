package htmlreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "qac", Doc: (*Run).qacDoc, Metrics: qacMetrics})
}

// qac is the run's results; nil when the run is not a qac run.
func (r *Run) qac() *results.QACResults {
	res, _ := r.Results.(*results.QACResults)
	return res
}

// qacDoc is the page of a query-at-cardinality run: the computed time per
// cardinality, the protocol's drops and whether it retained anything
// first; the protocol's warnings; the diagram of time against cardinality
// with its reading; the Q@C table and the failed checks. build.go adds the
// reporting paragraph (protocol.txt).
func (r *Run) qacDoc(d *Doc) error {
	q := r.qac()
	d.Title = fmt.Sprintf("Query at cardinality: %s on %s %s", q.Query, q.Engine, q.EngineVersion)
	d.Summary = qacHeadlines(q)
	r.qacWarnings(d)
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{{"qac", "Time against cardinality", qacReading(q)}})...)
	d.Sections = append(d.Sections, Section{ID: "qacs", Title: "Every cardinality",
		Reading: "Medians with their 95% bootstrap intervals over the QEs the protocol kept.", Table: csvTable("", report.QACCSVTable(q))})
	if t := qacViolationsTable(q.Protocol); t != nil {
		d.Sections = append(d.Sections, Section{ID: "checks", Title: "Failed sanity checks", Table: t})
	}
	return err
}

// qacReading follows the measured and computed medians from the smallest
// to the largest cardinality that has them, and says where the plan
// changed.
func qacReading(r *results.QACResults) string {
	var with []results.QaCResult
	for _, q := range r.QaCs {
		if q.Measured.N > 0 {
			with = append(with, q)
		}
	}
	if len(with) == 0 {
		// report.QACChart then draws every QE that ran.
		return "The protocol kept no execution at any cardinality (its checks drop the executions a busy machine disturbs): " +
			"the diagram shows the medians over every QE that ran, which are not the protocol's result."
	}
	a, b := with[0], with[len(with)-1]
	ca, name := qacComputed(r, a)
	cb, _ := qacComputed(r, b)
	var s strings.Builder
	if len(with) == 1 {
		fmt.Fprintf(&s, "Only cardinality %d has kept executions: measured %s ms, %s %s ms.", a.Cardinality, num(a.Measured.MedianMS), name, num(ca.MedianMS))
	} else {
		fmt.Fprintf(&s, "Measured time goes from %s ms at cardinality %d to %s ms at %d", num(a.Measured.MedianMS), a.Cardinality, num(b.Measured.MedianMS), b.Cardinality)
		if a.Measured.MedianMS > 0 && a.Cardinality > 0 {
			fmt.Fprintf(&s, " (%s times, for %s times the rows)", num(b.Measured.MedianMS/a.Measured.MedianMS), num(float64(b.Cardinality)/float64(a.Cardinality)))
		}
		fmt.Fprintf(&s, "; %s from %s to %s ms.", name, num(ca.MedianMS), num(cb.MedianMS))
	}
	var changes []string
	for i := 1; i < len(r.QaCs); i++ {
		if r.QaCs[i].Plan != r.QaCs[i-1].Plan {
			changes = append(changes, strconv.FormatInt(r.QaCs[i].Cardinality, 10))
		}
	}
	switch {
	case len(changes) > 0:
		fmt.Fprintf(&s, " The plan changes at cardinality %s (dashed).", strings.Join(changes, ", "))
	case len(r.QaCs) > 1:
		s.WriteString(" The plan is the same at every cardinality.")
	}
	return s.String()
}
