package htmlreport

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// abtestReading is the ratio diagram's one line: per cache mode, which
// queries B ran faster (and by up to what ratio), which A ran faster (down
// to what ratio), and which show no significant difference.
func abtestReading(a *results.ABTestResults) string {
	var out []string
	for _, c := range a.Caches {
		var b, aa, same, few []string
		bMax, aMin := 0.0, 0.0
		loSame, hiSame := 0.0, 0.0
		for _, q := range a.Queries {
			run := q.Run(c)
			if run == nil || run.Comparison == nil {
				continue
			}
			f := run.Comparison.Factor
			switch run.Comparison.Verdict {
			case stats.VerdictBFaster:
				if len(b) == 0 || f > bMax {
					bMax = f
				}
				b = append(b, q.Label)
			case stats.VerdictAFaster:
				if len(aa) == 0 || f < aMin {
					aMin = f
				}
				aa = append(aa, q.Label)
			case stats.VerdictNoDiff:
				if len(same) == 0 {
					loSame, hiSame = f, f
				}
				loSame, hiSame = min(loSame, f), max(hiSame, f)
				same = append(same, q.Label)
			default:
				few = append(few, q.Label)
			}
		}
		var parts []string
		if len(b) > 0 {
			parts = append(parts, fmt.Sprintf("B is faster on %s (time A / time B %s)", listText(b, 6), upTo("up to", bMax, len(b))))
		}
		if len(aa) > 0 {
			parts = append(parts, fmt.Sprintf("A is faster on %s (time A / time B %s)", listText(aa, 6), upTo("down to", aMin, len(aa))))
		}
		if len(same) > 0 {
			what := "no significant difference on " + listText(same, 6)
			if len(b)+len(aa) == 0 {
				what = "no query differs significantly"
			}
			if len(same) == 1 {
				what += fmt.Sprintf(" (ratio %s, its interval containing 1)", num(loSame))
			} else {
				what += fmt.Sprintf(" (ratios %s, every interval containing 1)", spanText(loSame, hiSame))
			}
			parts = append(parts, what)
		}
		if len(few) > 0 {
			parts = append(parts, "too few pairs for a verdict on "+listText(few, 6))
		}
		if len(parts) == 0 {
			continue
		}
		s := strings.Join(parts, "; ")
		if len(a.Caches) > 1 || len(out) > 0 {
			s = c + " cache: " + s
		}
		out = append(out, strings.ToUpper(s[:1])+s[1:]+".")
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, " ") + fmt.Sprintf(" A verdict is significant when the %s interval of the ratio excludes 1 and the Wilcoxon signed-rank test of the pairs gives p < %g.", pctText(a.Level), math.Round((1-a.Level)*1e4)/1e4)
}

// upTo is "1.52" for one query, "up to 1.52" for several.
func upTo(word string, v float64, n int) string {
	if n == 1 {
		return num(v)
	}
	return word + " " + num(v)
}

// spanText is "0.97 to 1.04", or the one value when both are equal.
func spanText(lo, hi float64) string {
	if num(lo) == num(hi) {
		return num(lo)
	}
	return num(lo) + " to " + num(hi)
}
