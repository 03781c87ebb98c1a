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
func wisconsinMetrics(runs []*Run) [][]Metric {
	var keys []report.QueryKey
	seen := map[report.QueryKey]bool{}
	sizes := map[int64]bool{}
	dests := map[int]map[string]bool{}
	for _, r := range runs {
		for qi := range r.wisconsin().Queries {
			k := report.QueryKeyOf(&r.wisconsin().Queries[qi])
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
	out := make([][]Metric, len(runs))
	for i, r := range runs {
		// by size, query, organisation, destination: the order people
		// look a query up in, not the order it ran in
		qs := make([]*results.QueryResult, len(r.wisconsin().Queries))
		for qi := range r.wisconsin().Queries {
			qs[qi] = &r.wisconsin().Queries[qi]
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
			m := Metric{Key: cmpKey("query|%d|%s|%s|%d", k.Query, k.Organization, k.Destination, k.Size),
				Label: label + sizeSuffix(q.Size), Short: short[k] + sizeSuffix(q.Size), Unit: "ms", Better: stats.SmallerIsBetter}
			if q.Status == results.StatusOK && len(q.SamplesMS) > 0 {
				m.Samples = q.SamplesMS
			} else {
				m.Missing = cmpQueryNote(q)
			}
			out[i] = append(out[i], m)
			// The engine's own time of the query, where the run has it:
			// its improvement is seed 004's, from the engine's times.
			if e := q.Engine; e != nil && q.Status == results.StatusOK {
				out[i] = append(out[i], Metric{Key: "engine|" + m.Key, Label: m.Label + ", engine time", Short: m.Short + " eng",
					Unit: "ms", Better: stats.SmallerIsBetter, Samples: e.TotalSamplesMS})
			}
		}
	}
	for i, r := range runs {
		for _, l := range r.wisconsin().Loads {
			m := Metric{Key: cmpKey("load|%s|%d", l.Relation, l.Size), Label: "load " + l.Relation + sizeSuffix(l.Size),
				Unit: "rows/s", Better: stats.BiggerIsBetter}
			if l.RowsPerS > 0 {
				m.Samples = []float64{l.RowsPerS}
			} else {
				m.Missing = "not loaded"
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

// wisconsinDiagrams are the per-query bars, one diagram per relation size.
func wisconsinDiagrams(c *comparison, add addDiagram) {
	legend := c.names()
	runs := make([]*results.WisconsinResults, len(c.runs))
	var sizes []int64
	for i, r := range c.runs {
		runs[i] = r.wisconsin()
		for _, q := range r.wisconsin().Queries {
			if !slices.Contains(sizes, q.Size) {
				sizes = append(sizes, q.Size)
			}
		}
	}
	slices.Sort(sizes)
	for _, n := range sizes {
		name := fmt.Sprintf("compare_queries_%d", n)
		charts, err := report.CompareQueryChart(name, legend, runs, n)
		add(charts, err, name, fmt.Sprintf("Time per query at N=%d", n),
			"Each query's median time, one colour per run, on a log axis (compare the tops); the whiskers span the fastest to the slowest repetition. "+
				c.verdictTally(fmt.Sprintf("|%d", n), "query|"))
	}
}
