package htmlreport

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// wisconsinMetrics are, per run, the time of every query (per
// organisation, destination and size) from its repetitions, and the load
// rate of every relation (one value each). Labels are made over all runs,
// so that the same query has the same name in each.
func wisconsinMetrics(runs []*Run) [][]cmpMetric {
	var keys []report.QueryKey
	seen := map[report.QueryKey]bool{}
	sizes := map[int64]bool{}
	dests := map[int]map[string]bool{}
	for _, r := range runs {
		for qi := range r.Wisconsin.Queries {
			k := report.QueryKeyOf(&r.Wisconsin.Queries[qi])
			sizes[k.Size] = true
			if dests[k.Query] == nil {
				dests[k.Query] = map[string]bool{}
			}
			dests[k.Query][k.Destination] = true
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	short := map[report.QueryKey]string{}
	for i, l := range report.QueryLabels(keys) {
		short[keys[i]] = l
	}
	sizeSuffix := func(n int64) string {
		if len(sizes) > 1 {
			return fmt.Sprintf(" N=%d", n)
		}
		return ""
	}
	out := make([][]cmpMetric, len(runs))
	for i, r := range runs {
		// by size, query, organisation, destination: the order people
		// look a query up in, not the order it ran in
		qs := make([]*results.QueryResult, len(r.Wisconsin.Queries))
		for qi := range r.Wisconsin.Queries {
			qs[qi] = &r.Wisconsin.Queries[qi]
		}
		slices.SortStableFunc(qs, func(a, b *results.QueryResult) int {
			return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(a.Query, b.Query), cmp.Compare(a.Organization, b.Organization), cmp.Compare(a.Destination, b.Destination))
		})
		for _, q := range qs {
			k := report.QueryKeyOf(q)
			label := fmt.Sprintf("Q%d %s (%s)", q.Query, q.Class, q.Organization)
			if len(dests[q.Query]) > 1 {
				label += " to " + q.Destination
			}
			m := cmpMetric{key: cmpKey("query|%d|%s|%s|%d", k.Query, k.Organization, k.Destination, k.Size),
				label: label + sizeSuffix(q.Size), short: short[k] + sizeSuffix(q.Size), unit: "ms", better: stats.SmallerIsBetter}
			if q.Status == results.StatusOK && len(q.SamplesMS) > 0 {
				m.samples = q.SamplesMS
			} else {
				m.missing = cmpQueryNote(q)
			}
			out[i] = append(out[i], m)
		}
	}
	for i, r := range runs {
		for _, l := range r.Wisconsin.Loads {
			m := cmpMetric{key: cmpKey("load|%s|%d", l.Relation, l.Size), label: "load " + l.Relation + sizeSuffix(l.Size),
				unit: "rows/s", better: stats.BiggerIsBetter}
			if l.RowsPerS > 0 {
				m.samples = []float64{l.RowsPerS}
			} else {
				m.missing = "not loaded"
			}
			out[i] = append(out[i], m)
		}
	}
	return out
}

// cmpQueryNote says why a query result has no time, as the run's tables do.
func cmpQueryNote(q *results.QueryResult) string {
	if c := report.Cell(q); c != "" && c != "-" {
		if q.Status == results.StatusOK {
			return "no repetitions"
		}
		return c
	}
	return q.Status
}
