package htmlreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// abByVerdict groups one cache mode's queries by verdict; a query without
// a comparison (not run, or no pair finished) is under "".
func abByVerdict(a *results.ABTestResults, cache string) map[string][]string {
	by := map[string][]string{}
	for _, q := range a.Queries {
		v := ""
		if run := q.Run(cache); run != nil && run.Comparison != nil {
			v = run.Comparison.Verdict
		}
		by[v] = append(by[v], q.Label)
	}
	return by
}

// abtestSummary: what A and B are, per cache mode the count of each
// verdict (with its queries), then every query's verdict with the ratio
// time A / time B and its interval.
func abtestSummary(a *results.ABTestResults) []Headline {
	hs := []Headline{
		{Label: "A", Value: strings.TrimSpace(a.A.Engine + " " + a.A.EngineVersion), Note: abVariantNote(a.A, a.B)},
		{Label: "B", Value: strings.TrimSpace(a.B.Engine + " " + a.B.EngineVersion), Note: abVariantNote(a.B, a.A)},
	}
	for _, c := range a.Caches {
		hs = append(hs, abTallyHeadline(a, c))
	}
	for _, q := range a.Queries {
		for _, c := range a.Caches {
			label := q.Label
			if len(a.Caches) > 1 {
				label += " " + c
			}
			hs = append(hs, abQueryHeadline(label, q.Run(c)))
		}
	}
	return hs
}

// abTallyHeadline counts one cache mode's verdicts in one headline:
// "B faster / A faster / no significant difference" as "2 / 1 / 1" (with
// too few pairs and not compared added when there are any), and the
// queries of each non-empty group in the note.
func abTallyHeadline(a *results.ABTestResults, cache string) Headline {
	by := abByVerdict(a, cache)
	var names, counts, groups []string
	add := func(name string, qs []string, always bool) {
		if len(qs) == 0 && !always {
			return
		}
		names, counts = append(names, name), append(counts, strconv.Itoa(len(qs)))
		if len(qs) > 0 {
			groups = append(groups, name+": "+listText(qs, 8))
		}
	}
	add(stats.VerdictBFaster, by[stats.VerdictBFaster], true)
	add(stats.VerdictAFaster, by[stats.VerdictAFaster], true)
	add(stats.VerdictNoDiff, by[stats.VerdictNoDiff], true)
	add("too few pairs", by[stats.VerdictTooFew], false)
	add("not compared", by[""], false)
	return Headline{Label: fmt.Sprintf("%s cache, %s: %s", cache, countNoun(len(a.Queries), "query", "queries"), strings.Join(names, " / ")),
		Value: strings.Join(counts, " / "), Note: strings.Join(groups, "; ")}
}

// abVariantNote is a variant's session statements, or its database when
// that is what tells the two apart.
func abVariantNote(v, other results.ABVariant) string {
	var parts []string
	if v.DB != other.DB {
		parts = append(parts, v.DB)
	}
	if len(v.Session) > 0 {
		parts = append(parts, strings.Join(v.Session, "; "))
	}
	if len(parts) == 0 {
		return "no session settings"
	}
	return strings.Join(parts, "; ")
}

// abQueryHeadline is one query's verdict in one cache mode.
func abQueryHeadline(label string, run *results.ABCacheRun) Headline {
	switch {
	case run == nil:
		return Headline{Label: label, Value: "not run"}
	case run.Comparison == nil:
		return Headline{Label: label, Value: run.Status, Note: firstLine(run.Reason)}
	}
	c := run.Comparison
	note := fmt.Sprintf("time A / time B %s, %s interval [%s, %s], %s", num(c.Factor), pctText(c.Level), num(c.Low), num(c.High), countNoun(c.Pairs, "pair", "pairs"))
	if run.Status != results.StatusOK {
		note += "; " + run.Status
	}
	return Headline{Label: label, Value: c.Verdict, Note: note}
}

// abtestWarnings: an incomplete run, the run's own warnings, and per query
// and cache mode what makes its verdict doubtful or absent: not run, a
// wrong cardinality or an error, no pair finished, fewer pairs than asked
// or too few for a verdict; and caches a cold run could not empty.
func abtestWarnings(a *results.ABTestResults) []string {
	w := runStateWarnings(a.Complete, a.Error, a.Warnings)
	said := func(s string) bool {
		if s == "" {
			return false
		}
		for _, x := range a.Warnings {
			if strings.Contains(x, s) {
				return true
			}
		}
		return false
	}
	for _, q := range a.Queries {
		for _, c := range a.Caches {
			run := q.Run(c)
			where := q.Label + " " + c
			switch {
			case run == nil:
				w = append(w, where+": not run.")
				continue
			case run.Status == results.StatusMismatch && !said(run.Reason):
				w = append(w, fmt.Sprintf("%s: cardinality mismatch: %s.", where, run.Reason))
			case run.Status != results.StatusOK && run.Status != results.StatusMismatch && !said(run.Reason):
				w = append(w, fmt.Sprintf("%s: %s: %s.", where, run.Status, firstLine(run.Reason)))
			}
			switch cmp := run.Comparison; {
			case cmp == nil:
				w = append(w, where+": no pair finished, so there is no comparison.")
			case cmp.Pairs < stats.MinABPairs || cmp.Verdict == stats.VerdictTooFew:
				w = append(w, fmt.Sprintf("%s: only %s, too few for a verdict (at least %d are needed).", where, countNoun(cmp.Pairs, "pair", "pairs"), stats.FewestPairs(1-a.Level)))
			case cmp.Pairs < a.Reps:
				w = append(w, fmt.Sprintf("%s: %d of %d pairs measured.", where, cmp.Pairs, a.Reps))
			}
		}
	}
	if cf := a.CacheFlush; cf != nil {
		for _, nd := range cf.NotDone {
			w = append(w, "Cold cache: not emptied: "+nd)
		}
	}
	return w
}
