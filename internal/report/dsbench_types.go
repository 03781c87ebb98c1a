package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The per-type table of a sweep: per scale, each transaction type's
// commits (and their share of the scale's), failed trials by class,
// retries and residence-time percentiles, with a row per statement the
// workload timed under its type. A workload of one type that times no
// statement has its figures in results.txt already: no table then.

// DSBenchTypesShown says whether the run has a per-type table: some scale
// with more than one type or a timed statement.
func DSBenchTypesShown(r *results.DSBenchResults) bool {
	for _, s := range r.Scales {
		if len(s.Types) > 1 {
			return true
		}
		for _, ty := range s.Types {
			if len(ty.Statements) > 0 {
				return true
			}
		}
	}
	return false
}

// DSBenchTypeFiles are per_type.txt and per_type.csv when the run has the
// table, none otherwise.
func DSBenchTypeFiles(r *results.DSBenchResults) map[string][]byte {
	if !DSBenchTypesShown(r) {
		return nil
	}
	t := DSBenchTypes(r)
	return map[string][]byte{"per_type.txt": t.TextBytes(), "per_type.csv": t.CSVBytes()}
}

// DSBenchTypes is the per-type table (per_type.txt, per_type.csv).
func DSBenchTypes(r *results.DSBenchResults) *Table {
	t := &Table{Title: []string{"Per transaction type and statement: commits, failed trials, retries; residence times [ms]"}}
	limited := false
	for _, s := range r.Scales {
		for _, ty := range s.Types {
			limited = limited || ty.Limit != nil
		}
	}
	t.Rows = append(t.Rows, []string{"scale", "type", "statement", "count", "share_%", "failed", "retries", "errors", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p99.9_ms", "max_ms"})
	if limited {
		t.Rows[0] = append(t.Rows[0], "limit")
	}
	for _, s := range r.Scales {
		x := strconv.FormatInt(s.Scale, 10)
		for _, ty := range s.Types {
			share := "-"
			if s.Transactions > 0 {
				share = strconv.FormatFloat(100*float64(ty.Count)/float64(s.Transactions), 'f', 1, 64)
			}
			row := []string{x, ty.Name, "-", strconv.FormatInt(ty.Count, 10), share,
				strconv.FormatInt(ty.Failed, 10), strconv.FormatInt(ty.Retries, 10), errorClasses(ty.Errors)}
			row = append(row, percentileCells(ty.Percentiles)...)
			if limited {
				row = append(row, limitCell(ty.Limit))
			}
			t.Rows = append(t.Rows, row)
			for _, st := range ty.Statements {
				row := []string{x, ty.Name, st.Name, strconv.FormatInt(st.Count, 10), "-", "-", "-", "-"}
				row = append(row, percentileCells(st.Percentiles)...)
				if limited {
					row = append(row, "-")
				}
				t.Rows = append(t.Rows, row)
			}
		}
	}
	t.Notes = []string{
		"share_% is the type's commits over the scale's; a statement's count is its executions in the trials counted (committed or failed inside a cycle), its times its own.",
		"failed trials and retries count for the type of the attempt; errors gives them by class.",
	}
	if limited {
		t.Notes = append(t.Notes, "limit is the workload's response-time limit of the type, a percentile of its residence times at most so many ms, with the scale's verdict (pass, or FAIL with the percentile measured).")
	}
	t.Notes = append(t.Notes, mixNotes(r)...)
	return t
}

// limitCell writes a type's limit and verdict in one word: p90<=5000ms:pass,
// or p90<=5000ms:FAIL(6210ms); "-" for a type without one.
func limitCell(l *results.TypeLimit) string {
	if l == nil {
		return "-"
	}
	c := "p" + strconv.FormatFloat(l.Percentile, 'g', -1, 64) + "<=" + figureCell(l.MaxMS) + "ms:"
	if l.Pass {
		return c + "pass"
	}
	return c + "FAIL(" + figureCell(l.ValueMS) + "ms)"
}

// mixNotes test, per scale, the types' commits against the weights the
// workload draws them with (Pearson's chi-square): a mix that does not
// follow its weights is a defect of the draw, or a sign that one type
// failed far more often than the others.
func mixNotes(r *results.DSBenchResults) []string {
	if r.Workload == nil || len(r.Workload.Types) < 2 {
		return nil
	}
	weight := map[string]int{}
	for _, ty := range r.Workload.Types {
		weight[ty.Name] = ty.Weight
	}
	var out []string
	for _, s := range r.Scales {
		counts, weights := make([]int64, len(s.Types)), make([]int, len(s.Types))
		for i, ty := range s.Types {
			counts[i], weights[i] = ty.Count, weight[ty.Name]
		}
		m, ok := stats.MixTest(counts, weights)
		if !ok {
			continue
		}
		verdict := "the commits follow the weights"
		if m.P < 0.001 {
			verdict = "the commits do NOT follow the weights"
		}
		out = append(out, fmt.Sprintf("scale %d: the mix against the weights %s: chi-square %.2f with %d degrees of freedom, p = %.3g: %s (at the 0.001 level; a type that fails more often than the others commits less than its weight).",
			s.Scale, weightsText(r.Workload.Types), m.ChiSquare, m.DF, m.P, verdict))
	}
	return out
}

// weightsText writes the types' weights as name:weight pairs.
func weightsText(types []results.WorkloadType) string {
	parts := make([]string, len(types))
	for i, ty := range types {
		parts[i] = fmt.Sprintf("%s:%d", ty.Name, ty.Weight)
	}
	return strings.Join(parts, " ")
}

// errorClasses writes failed trials by class as class:n pairs by name,
// one word ("-" for none) so that the text table's columns hold.
func errorClasses(m map[string]int64) string {
	if len(m) == 0 {
		return "-"
	}
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%d", k, m[k])
	}
	return strings.Join(parts, ",")
}

// percentileCells are p50 .. max in ms, to the microsecond.
func percentileCells(p results.Percentiles) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	return []string{f(p.P50MS), f(p.P90MS), f(p.P95MS), f(p.P99MS), f(p.P999MS), f(p.MaxMS)}
}
