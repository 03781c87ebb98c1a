package htmlreport

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// checkCount is how often one sanity check failed.
type checkCount struct {
	check string
	n     int
}

// countChecks counts the failed checks of the QEs, most frequent first
// (then by name, so that the page is the same at every build).
func countChecks(r *results.QACResults) []checkCount {
	by := map[string]int{}
	for _, q := range r.QaCs {
		for _, qe := range q.QEs {
			for _, c := range qe.Checks {
				by[c]++
			}
		}
	}
	out := make([]checkCount, 0, len(by))
	for c, n := range by {
		out = append(out, checkCount{c, n})
	}
	slices.SortFunc(out, func(a, b checkCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return cmp.Compare(a.check, b.check)
	})
	return out
}

// qacWarnings adds the protocol's verdicts (experiment-wide checks,
// deviations, post checks), the dropped QEs by check and the dropped Q@Cs
// with their reasons, an incomplete run, caches not emptied, and the run's
// own warnings.
func (r *Run) qacWarnings(d *Doc) {
	q := r.qac()
	r.warnIncomplete(d, q.Complete, q.Error, "the cardinalities measured")
	if p := q.Protocol; p != nil {
		for _, msg := range protocolWarnings(p) {
			r.warn(d, msg)
		}
	}
	if qes, dropped := qacDroppedQEs(q); dropped > 0 {
		var why []string
		for _, c := range countChecks(q) {
			why = append(why, fmt.Sprintf("%s %d", c.check, c.n))
		}
		r.warn(d, fmt.Sprintf("%d of %d query executions (%s%%) dropped by the protocol's sanity checks; failed checks: %s",
			dropped, qes, pct(100*float64(dropped)/float64(qes)), strings.Join(why, ", ")))
	}
	for _, c := range q.QaCs {
		if !c.Retained {
			why := strings.Join(c.DropReasons, ", ")
			if why == "" {
				why = "no reason recorded"
			}
			r.warn(d, fmt.Sprintf("cardinality %d: Q@C dropped (%s), %d of %d QEs kept", c.Cardinality, why, c.Kept, len(c.QEs)))
		}
	}
	if f := q.CacheFlush; f != nil {
		for _, nd := range f.NotDone {
			r.warn(d, "cold cache: not emptied: "+nd)
		}
	}
	for _, w := range q.Warnings {
		r.warn(d, w)
	}
}

// qacViolationsTable lists every failed check by check and scope, with
// how often it failed and where first: what the protocol's drops rest on.
func qacViolationsTable(p *results.Protocol) *report.Table {
	if p == nil || len(p.Violations)+len(p.PostChecks) == 0 {
		return nil
	}
	type key struct{ check, scope string }
	var order []key
	count := map[key]int{}
	first := map[key]results.Violation{}
	for _, v := range append(slices.Clone(p.Violations), p.PostChecks...) {
		k := key{v.Check, v.Scope}
		if count[k] == 0 {
			order = append(order, k)
			first[k] = v
		}
		count[k]++
	}
	t := &report.Table{
		Title: []string{"Failed sanity checks (a QE or Q@C fails several at once; protocol.txt says what each means)"},
		Rows:  [][]string{{"check", "scope", "times", "first where", "first detail"}},
	}
	for _, k := range order {
		v := first[k]
		where := v.Where
		if where == "" {
			where = "-"
		}
		t.Rows = append(t.Rows, []string{k.check, k.scope, strconv.Itoa(count[k]), where, v.Detail})
	}
	return t
}
