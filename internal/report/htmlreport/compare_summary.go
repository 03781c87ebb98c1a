package htmlreport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// summary: per other run the count of each verdict, then its biggest
// significant differences (or, when there is none, its largest ratio, said
// to be no verdict).
func (c *comparison) summary() []Headline {
	var out []Headline
	for i := 1; i < len(c.runs); i++ {
		counts := map[string]int{}
		for _, row := range c.rows {
			counts[row.vs[i-1].Verdict]++
		}
		var rest []string
		for _, v := range []string{stats.VerdictNoDiff, stats.VerdictTooFew, stats.VerdictNotComparable} {
			if counts[v] > 0 {
				rest = append(rest, fmt.Sprintf("%d %s", counts[v], v))
			}
		}
		rest = append(rest, countNoun(len(c.rows), "metric", "metrics")+" in all")
		out = append(out, Headline{Label: c.name(i) + " against " + c.name(0),
			Value: fmt.Sprintf("%d faster · %d slower", counts[stats.VerdictFaster], counts[stats.VerdictSlower]),
			Note:  strings.Join(rest, " · ")})
	}
	for i := 1; i < len(c.runs); i++ {
		out = append(out, c.biggest(i, 3)...)
	}
	return out
}

// biggest are up to n headlines for run i's largest significant
// differences from the baseline, the largest ratio first (in either
// direction: half is as big a difference as twice).
func (c *comparison) biggest(i, n int) []Headline {
	type cand struct {
		row *compareRow
		v   stats.RunComparison
	}
	var sig, all []cand
	for k := range c.rows {
		v := c.rows[k].vs[i-1]
		if math.IsNaN(v.Ratio) || !(v.Ratio > 0) {
			continue
		}
		all = append(all, cand{&c.rows[k], v})
		if v.Verdict == stats.VerdictFaster || v.Verdict == stats.VerdictSlower {
			sig = append(sig, cand{&c.rows[k], v})
		}
	}
	size := func(x cand) float64 { return math.Abs(math.Log(x.v.Ratio)) }
	byDiff := func(a, b cand) int { return cmp.Compare(size(b), size(a)) }
	slices.SortStableFunc(sig, byDiff)
	slices.SortStableFunc(all, byDiff)
	pick := sig
	if len(pick) == 0 && len(all) > 0 {
		pick = all[:1] // no verdict: say so beside the largest ratio
	}
	var out []Headline
	for _, x := range pick[:min(n, len(pick))] {
		label := x.row.Label
		if len(c.runs) > 2 {
			label += " (" + c.letters[i] + ")"
		}
		if len(sig) == 0 {
			label = "largest ratio: " + label
		}
		out = append(out, Headline{Label: label, Value: cmpDifferenceText(x.v),
			Note: c.ratioNote(x.row, i, x.v)})
	}
	return out
}

// cmpDifferenceText says a significant ratio as a person would: "2.2×
// faster", "1.5× slower" (the factor is the ratio or its inverse,
// whichever is above 1); otherwise the verdict, as a ratio that is no
// difference should not be read as one.
func cmpDifferenceText(v stats.RunComparison) string {
	if v.Verdict != stats.VerdictFaster && v.Verdict != stats.VerdictSlower {
		return v.Verdict
	}
	f := math.Max(v.Ratio, 1/v.Ratio)
	digits := 1
	if f >= 10 {
		digits = 0
	}
	return strconv.FormatFloat(f, 'f', digits, 64) + "× " + v.Verdict
}

// ratioNote is the ratio with its interval and both medians.
func (c *comparison) ratioNote(row *compareRow, i int, v stats.RunComparison) string {
	s := fmt.Sprintf("%s/%s %s", c.letters[i], c.letters[0], num(v.Ratio))
	if v.HasInterval() {
		s += fmt.Sprintf(", %g%% interval %s", 100*v.Level, cmpIntervalText(v))
	}
	return s + fmt.Sprintf("; %s %s, %s %s %s", c.letters[0], cmpValueText(row.per[0]), c.letters[i], cmpValueText(row.per[i]), row.Unit)
}

// warnings: what each run says about itself (incomplete, its own
// warnings, a few each), a missing manifest, and runs that measured
// different work under one name. A warning every run gives is said once.
func (c *comparison) warnings() []string {
	per := make([][]string, len(c.runs))
	for i, r := range c.runs {
		complete, errMsg, own := cmpRunState(r)
		ws := runStateWarnings(complete, errMsg, nil)
		const keep = 3
		if len(own) > keep {
			ws = append(ws, own[:keep]...)
			ws = append(ws, fmt.Sprintf("and %d more warnings in its own report", len(own)-keep))
		} else {
			ws = append(ws, own...)
		}
		if r.Manifest == nil {
			ws = append(ws, "manifest.json is missing: its engine, settings and machine are unknown")
		}
		per[i] = ws
	}
	var out []string
	for _, w := range per[0] {
		every := true
		for _, ws := range per[1:] {
			every = every && slices.Contains(ws, w)
		}
		if every {
			out = append(out, "All runs: "+w)
		}
	}
	for i, ws := range per {
		for _, w := range ws {
			if !slices.Contains(out, "All runs: "+w) {
				out = append(out, c.name(i)+": "+w)
			}
		}
	}
	if k := pageKindOf(c.runs[0].Experiment); k.Mismatch != nil {
		out = append(out, k.Mismatch(c)...)
	}
	if len(c.rows) == 0 {
		out = append(out, "The runs have no metric in common: nothing to compare.")
	}
	return out
}

// cmpRunState is what a run's results.json says about itself.
func cmpRunState(r *Run) (complete bool, errMsg string, warnings []string) {
	if r.Results == nil {
		return true, "", nil
	}
	h := r.Results.Head()
	return h.Complete, h.Error, h.Warnings
}
