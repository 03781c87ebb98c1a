package htmlreport

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// engineView is Wisconsin runs of several engines put side by side: one
// column per run (engine), one row per query result (query, organisation,
// destination, size), each cell the engine's median or why there is none.
// The page, its diagram and its script all read this one structure.
type engineView struct {
	engines []engineCol
	rows    []engineRow
	// severalSizes: the rows are grouped by size under a heading row.
	severalSizes bool
}

// engineCol is one run of the view.
type engineCol struct {
	label string // "sqlite 3.54.1"; made unique across the view
	run   *Run
}

// engineRow is one query result across the engines.
type engineRow struct {
	key   engineRowKey
	label string // "Q9 joinAselB (heap)", with the destination when there are several
	cells []engineCell
}

// engineRowKey identifies a query result in every run.
type engineRowKey struct {
	size  int64
	query int
	org   string
	dest  string
}

// engineCell is one engine's answer to one query result.
type engineCell struct {
	// ok: the result passed its cardinality check and ms is its median
	// elapsed time; only ok cells have a relative time and enter the
	// geometric mean.
	ok bool
	ms float64
	// text says why there is no time: n/a, MISMATCH, ERROR, > 2m0s, not run.
	text  string
	title string // the tooltip: status and reason, or the repetitions' spread
}

// engineNotRun is the cell of a query result an engine's run does not have.
const engineNotRun = "not run"

// newEngineView builds the view of runs; every run must be a Wisconsin run.
func newEngineView(runs []*Run) (*engineView, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("engines view: no run")
	}
	v := &engineView{}
	for _, r := range runs {
		if r.wisconsin() == nil {
			return nil, fmt.Errorf("engines view: %s is a %s run, not a Wisconsin run", r.Dir, r.Experiment)
		}
		v.engines = append(v.engines, engineCol{run: r})
	}
	v.labelEngines()
	// Every query result any run has, in the order of the first run that
	// has it; then sorted by size and query number (stable: organisations
	// and destinations stay in run order).
	index := map[engineRowKey]int{}
	sizes := map[int64]bool{}
	for _, e := range v.engines {
		for _, q := range e.run.wisconsin().Queries {
			k := engineRowKey{q.Size, q.Query, q.Organization, q.Destination}
			sizes[q.Size] = true
			if _, seen := index[k]; !seen {
				index[k] = len(v.rows)
				v.rows = append(v.rows, engineRow{key: k, label: fmt.Sprintf("Q%d %s (%s", q.Query, q.Class, q.Organization)})
			}
		}
	}
	v.severalSizes = len(sizes) > 1
	slices.SortStableFunc(v.rows, func(a, b engineRow) int {
		return cmp.Or(cmp.Compare(a.key.size, b.key.size), cmp.Compare(a.key.query, b.key.query))
	})
	dests := map[engineRowKey]int{} // (size, query, org) -> destinations seen
	for _, row := range v.rows {
		k := row.key
		k.dest = ""
		dests[k]++
	}
	for i := range v.rows {
		row := &v.rows[i]
		k := row.key
		k.dest = ""
		if dests[k] > 1 {
			row.label += ", " + row.key.dest
		}
		row.label += ")"
		for _, e := range v.engines {
			row.cells = append(row.cells, engineCellOf(engineFind(e.run.wisconsin(), row.key)))
		}
	}
	return v, nil
}

// labelEngines names the columns "engine version"; two runs of the same
// engine and version (two settings, two machines) add their directory's
// name so that the columns stay apart.
func (v *engineView) labelEngines() {
	count := map[string]int{}
	for i := range v.engines {
		w := v.engines[i].run.wisconsin()
		v.engines[i].label = strings.TrimSpace(w.Engine + " " + w.EngineVersion)
		count[v.engines[i].label]++
	}
	for i := range v.engines {
		if l := v.engines[i].label; count[l] > 1 {
			v.engines[i].label = l + " (" + engineRunName(v.engines[i].run.Dir) + ")"
		}
	}
}

// engineFind is the result of key in w; nil when the run does not have it.
func engineFind(w *results.WisconsinResults, k engineRowKey) *results.QueryResult {
	for i := range w.Queries {
		q := &w.Queries[i]
		if q.Size == k.size && q.Query == k.query && q.Organization == k.org && q.Destination == k.dest {
			return q
		}
	}
	return nil
}

// engineCellOf says what one engine answered.
func engineCellOf(q *results.QueryResult) engineCell {
	switch {
	case q == nil:
		return engineCell{text: engineNotRun, title: "this run did not have this query result"}
	case q.Status == results.StatusOK && q.ElapsedMS.Median > 0:
		e := q.ElapsedMS
		return engineCell{ok: true, ms: e.Median,
			title: fmt.Sprintf("median %s ms of %d repetitions (min %s, max %s); %d rows as expected", num(e.Median), e.N, num(e.Min), num(e.Max), q.Rows)}
	}
	c := engineCell{text: report.Cell(q), title: q.Status}
	if q.Status == results.StatusOK {
		// ok with a zero median: below the clock's resolution, no ratio.
		c.text, c.title = "0 ms", "median below the clock's resolution: no ratio"
	}
	if q.Status == results.StatusMismatch {
		c.title += fmt.Sprintf(": %d rows where %d were expected", q.Rows, q.ExpectedRows)
	}
	if q.Reason != "" {
		c.title += ": " + q.Reason
	}
	return c
}
