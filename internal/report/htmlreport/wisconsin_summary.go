package htmlreport

import (
	"fmt"
	"slices"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// wisconsinSize is what the summary says about one relation size: how many
// query results passed their cardinality check, and the times of those that
// did.
type wisconsinSize struct {
	size int64
	// ok passed the cardinality check; failed did not (mismatch, error,
	// timeout); notApplicable could not run on this engine. The quickstart
	// counts the same way.
	ok, failed, notApplicable int
	// geoMean is the geometric mean of the ok results' median times (ms):
	// one slow query does not dominate it, as it would an arithmetic mean.
	geoMean float64
	// judged and retained count the results the timing protocol judged
	// (--protocol ttp) and those it kept.
	judged, retained  int
	slowest, fastest  *results.QueryResult
	queries           []*results.QueryResult // this size's results, in query order
	severalDestsQuery map[queryOrg]bool      // run to more than one destination
}

// queryOrg is one query under one storage organisation.
type queryOrg struct {
	query int
	org   string
}

// wisconsinSizes summarises every size run, smallest first (the sizes of
// an incomplete run that had queries count too).
func wisconsinSizes(w *results.WisconsinResults) []wisconsinSize {
	sizes := slices.Clone(w.Sizes)
	for _, q := range w.Queries {
		if !slices.Contains(sizes, q.Size) {
			sizes = append(sizes, q.Size)
		}
	}
	slices.Sort(sizes)
	var out []wisconsinSize
	for _, n := range sizes {
		s := wisconsinSize{size: n, severalDestsQuery: map[queryOrg]bool{}}
		dests := map[queryOrg]string{}
		var medians []float64
		for i := range w.Queries {
			q := &w.Queries[i]
			if q.Size != n {
				continue
			}
			k := queryOrg{q.Query, q.Organization}
			if d, seen := dests[k]; seen && d != q.Destination {
				s.severalDestsQuery[k] = true
			}
			dests[k] = q.Destination
			s.queries = append(s.queries, q)
			if q.ProtocolRetained != nil {
				s.judged++
				if *q.ProtocolRetained {
					s.retained++
				}
			}
			switch q.Status {
			case results.StatusOK:
				s.ok++
				medians = append(medians, q.ElapsedMS.Median)
				if s.slowest == nil || q.ElapsedMS.Median > s.slowest.ElapsedMS.Median {
					s.slowest = q
				}
				if s.fastest == nil || q.ElapsedMS.Median < s.fastest.ElapsedMS.Median {
					s.fastest = q
				}
			case results.StatusNotApplicable:
				s.notApplicable++
			default:
				s.failed++
			}
		}
		slices.SortStableFunc(s.queries, func(a, b *results.QueryResult) int { return a.Query - b.Query })
		s.geoMean = stats.GeometricMean(medians)
		out = append(out, s)
	}
	return out
}

// queryLabel names a query result for people: "Q17 joinCselAselB
// (nonclustered)", with the destination when the same query and
// organisation ran to several.
func (s wisconsinSize) queryLabel(q *results.QueryResult) string {
	l := fmt.Sprintf("Q%d %s (%s", q.Query, q.Class, q.Organization)
	if s.severalDestsQuery[queryOrg{q.Query, q.Organization}] {
		l += ", " + q.Destination
	}
	return l + ")"
}

// headlines are the summary of one size: cardinality checks, geometric
// mean, slowest and fastest query.
func (s wisconsinSize) headlines() []Headline {
	at := fmt.Sprintf("N=%d: ", s.size)
	if len(s.queries) == 0 {
		return []Headline{{Label: at + "queries", Value: "none measured", Note: "the run stopped before this size"}}
	}
	ok := Headline{Label: at + "cardinality check", Value: fmt.Sprintf("%d ok / %d failed", s.ok, s.failed)}
	if s.notApplicable > 0 {
		ok.Note = fmt.Sprintf("%d not applicable on this engine", s.notApplicable)
	}
	out := []Headline{ok}
	if s.judged > 0 {
		out = append(out, Headline{Label: at + "timing protocol", Value: fmt.Sprintf("%d of %d kept", s.retained, s.judged),
			Note: "query results that passed its sanity checks"})
	}
	if s.ok == 0 {
		return out
	}
	out = append(out,
		Headline{Label: at + "geometric mean", Value: num(s.geoMean) + " ms", Note: fmt.Sprintf("of %d per-query median times", s.ok)},
		Headline{Label: at + "slowest", Value: num(s.slowest.ElapsedMS.Median) + " ms", Note: s.queryLabel(s.slowest)},
		Headline{Label: at + "fastest", Value: num(s.fastest.ElapsedMS.Median) + " ms", Note: s.queryLabel(s.fastest)},
	)
	return out
}
