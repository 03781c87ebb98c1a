package htmlreport

import (
	"math"
	"slices"
)

// The arithmetic of the engines view, in one place. The page's script
// (enginesScript) does the same in the browser for the engines and queries
// a reader selects; the two must agree, and the tests check the Go side
// against numbers computed by hand from results.json.

// engineShiftMS is the constant added to every time before two engines'
// times are divided for the summary, as ClickBench does (it adds 10 ms):
// without it a query of a few tens of microseconds, where a small
// absolute difference is a large ratio, would weigh as much in the
// geometric mean as a query of seconds.
const engineShiftMS = 10.0

// engineFastest is the smallest ok median of row among the selected engines;
// NaN when no selected engine answered.
func engineFastest(row engineRow, engines []bool) float64 {
	best := math.NaN()
	for j, c := range row.cells {
		if engines[j] && c.ok && (math.IsNaN(best) || c.ms < best) {
			best = c.ms
		}
	}
	return best
}

// engineRelative is each selected engine's median over the fastest one's on
// this row (1 for the fastest); NaN where an engine is not selected or
// did not answer. This is what the cells show, without the shift.
func engineRelative(row engineRow, engines []bool) []float64 {
	best := engineFastest(row, engines)
	out := make([]float64, len(row.cells))
	for j, c := range row.cells {
		out[j] = math.NaN()
		if engines[j] && c.ok && best > 0 {
			out[j] = c.ms / best
		}
	}
	return out
}

// engineScore is the summary of one engine over the selected queries.
type engineScore struct {
	// geo is the geometric mean over the common queries of
	// (median + engineShiftMS) / (fastest median + engineShiftMS); NaN when there is
	// no common query or the engine is not selected.
	geo float64
	// answered is how many selected queries this engine answered (ok).
	answered int
}

// engineScores are the engines' summaries over the selected rows, and the
// number of common queries: the selected rows that every selected engine
// answered. A query one of them did not answer (not applicable, mismatch,
// error, not run) is left out for all, so that each engine's mean is over
// the same queries.
func engineScores(v *engineView, engines, rows []bool) ([]engineScore, int) {
	out := make([]engineScore, len(v.engines))
	logs := make([]float64, len(v.engines))
	common := 0
	for i, row := range v.rows {
		if !slices.Contains(engines, true) {
			break // no engine: no common query either
		}
		if !rows[i] {
			continue
		}
		all := true
		for j, c := range row.cells {
			if !engines[j] {
				continue
			}
			if c.ok {
				out[j].answered++
			} else {
				all = false
			}
		}
		if !all {
			continue
		}
		common++
		best := engineFastest(row, engines)
		for j, c := range row.cells {
			if engines[j] {
				logs[j] += math.Log((c.ms + engineShiftMS) / (best + engineShiftMS))
			}
		}
	}
	for j := range out {
		out[j].geo = math.NaN()
		if engines[j] && common > 0 {
			out[j].geo = math.Exp(logs[j] / float64(common))
		}
	}
	return out, common
}

// engineSelectAll is a selection of n items, every one selected: the page as
// rendered before (or without) the script.
func engineSelectAll(n int) []bool {
	s := make([]bool, n)
	for i := range s {
		s[i] = true
	}
	return s
}
