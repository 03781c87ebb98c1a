package htmlreport

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Engines is the multi-engine view of Wisconsin runs, in the style of
// ClickBench's comparison page: a summary per engine (the geometric mean
// of its times relative to the fastest engine, over the queries every
// engine answered), then per query each engine's median relative to the
// fastest one's with the median beside it, and a diagram of the medians.
// Engines and queries are selectable in the browser (Doc.Script, nothing
// fetched); the page as rendered has all of them selected and reads the
// same with scripts off. Every run must be a Wisconsin run, one column
// each, in the order given.
func Engines(runs []*Run) (*Doc, error) {
	v, err := newEngineView(runs)
	if err != nil {
		return nil, err
	}
	return v.doc()
}

// doc is the view as a page of its own.
func (v *engineView) doc() (*Doc, error) {
	secs, err := v.sections()
	if err != nil {
		return nil, err
	}
	return &Doc{
		Title:    "Wisconsin benchmark: engines side by side",
		Subtitle: v.subtitle(),
		Summary:  v.headlines(),
		Warnings: v.warnings(),
		Sections: secs,
		Script:   enginesScript,
	}, nil
}

// sections are the view's parts: the summary with the selectors, the
// per-query table, the diagram of the medians.
func (v *engineView) sections() ([]Section, error) {
	summary, err := v.summaryHTML()
	if err != nil {
		return nil, err
	}
	out := []Section{
		{ID: "engines", Title: "Relative time per engine", Reading: v.reading(), HTML: summary},
		{ID: "engines_queries", Title: "Each query, relative to the fastest engine", HTML: v.detailHTML()},
	}
	for _, n := range v.sizes() {
		rows := v.rowsOfSize(n)
		title := fmt.Sprintf("Median elapsed time per query, N = %d", n)
		if svg, ok := v.diagramSVG(title, rows); ok {
			out = append(out, Section{ID: fmt.Sprintf("engines_times_n%d", n), Title: fmt.Sprintf("Median time per query and engine, N = %d", n),
				Reading: v.diagramReading(rows), SVG: svg})
		}
	}
	return out, nil
}

// engineTally is what the summary says about one engine, every engine and
// query selected.
type engineTally struct {
	score engineScore
	// wins: common queries on which this engine is the fastest (a tie
	// counts for each engine in it).
	wins                      int
	ok, failed, notApplicable int
}

// tallies are the engines' summaries and the number of common queries.
func (v *engineView) tallies() ([]engineTally, int) {
	engines := engineSelectAll(len(v.engines))
	sc, common := engineScores(v, engines, engineSelectAll(len(v.rows)))
	out := make([]engineTally, len(v.engines))
	for j := range out {
		out[j].score = sc[j]
		for _, s := range wisconsinSizes(v.engines[j].run.wisconsin()) {
			out[j].ok += s.ok
			out[j].failed += s.failed
			out[j].notApplicable += s.notApplicable
		}
	}
	for _, row := range v.rows {
		every := true
		for _, c := range row.cells {
			every = every && c.ok
		}
		if !every {
			continue
		}
		best := engineFastest(row, engines)
		for j, c := range row.cells {
			if c.ms == best {
				out[j].wins++
			}
		}
	}
	return out, common
}

// engineOrder is the engines by geometric mean, fastest first (no mean
// last), as the summary table lists them.
func engineOrder(sc []engineScore) []int {
	order := make([]int, len(sc))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return compareNaNLast(sc[a].geo, sc[b].geo) })
	return order
}

// scoresOf are the tallies' scores, for engineOrder.
func scoresOf(t []engineTally) []engineScore {
	out := make([]engineScore, len(t))
	for j := range t {
		out[j] = t[j].score
	}
	return out
}

// headlines: per engine its geometric mean, on how many queries it was
// the fastest, and its cardinality checks.
func (v *engineView) headlines() []Headline {
	t, common := v.tallies()
	var out []Headline
	for _, j := range engineOrder(scoresOf(t)) {
		x := t[j]
		h := Headline{Label: v.engines[j].label + ": relative time", Value: engineRatioText(x.score.geo)}
		var note []string
		if common > 0 {
			note = append(note, fmt.Sprintf("fastest on %d of %d queries", x.wins, common))
		}
		checks := fmt.Sprintf("%d ok, %d failed", x.ok, x.failed)
		if x.notApplicable > 0 {
			checks += fmt.Sprintf(", %d n/a", x.notApplicable)
		}
		h.Note = strings.Join(append(note, checks), " · ")
		out = append(out, h)
	}
	return out
}

// reading is the summary's one line, from its numbers.
func (v *engineView) reading() string {
	t, common := v.tallies()
	if common == 0 {
		return "No query was answered by every engine with the expected number of rows, so there is no common ground for a summary; the table below shows each engine's times."
	}
	order := engineOrder(scoresOf(t))
	var geos, wins []string
	for _, j := range order {
		if g := t[j].score.geo; !math.IsNaN(g) {
			geos = append(geos, v.engines[j].label+" "+engineRatioText(g))
		}
		wins = append(wins, fmt.Sprintf("%s on %d", v.engines[j].label, t[j].wins))
	}
	return fmt.Sprintf("Over the %d queries every engine answered, the geometric mean of each engine's time relative to the fastest engine on each query: %s (×1.00 would be the fastest on every query). Fastest per query: %s.",
		common, strings.Join(geos, ", "), strings.Join(wins, ", "))
}

// diagramReading is the one line under the diagram of rows: how far apart
// the medians are.
func (v *engineView) diagramReading(rows []engineRow) string {
	lo, hi := math.Inf(1), 0.0
	var loRow, hiRow string
	for _, row := range rows {
		for j, c := range row.cells {
			if !c.ok {
				continue
			}
			if c.ms < lo {
				lo, loRow = c.ms, row.label+" on "+v.engines[j].label
			}
			if c.ms > hi {
				hi, hiRow = c.ms, row.label+" on "+v.engines[j].label
			}
		}
	}
	s := fmt.Sprintf("The medians range from %s ms (%s) to %s ms (%s)", num(lo), loRow, num(hi), hiRow)
	if lo > 0 {
		s += fmt.Sprintf(", a factor of %s", num(hi/lo))
	}
	return s + "; a query without a bar says why (n/a: not applicable on that engine)."
}

// sizes are the relation sizes of the view's rows, in row order.
func (v *engineView) sizes() []int64 {
	var out []int64
	for _, row := range v.rows {
		if !slices.Contains(out, row.key.size) {
			out = append(out, row.key.size)
		}
	}
	return out
}

// rowsOfSize are the rows of relation size n.
func (v *engineView) rowsOfSize(n int64) []engineRow {
	var out []engineRow
	for _, row := range v.rows {
		if row.key.size == n {
			out = append(out, row)
		}
	}
	return out
}

// subtitle: the engines, the sizes, the repetitions and cache, the machine.
func (v *engineView) subtitle() string {
	var labels []string
	for _, e := range v.engines {
		labels = append(labels, e.label)
	}
	parts := []string{strings.Join(labels, ", ")}
	var sizes []string
	for _, n := range v.sizes() {
		sizes = append(sizes, fmt.Sprintf("N = %d", n))
	}
	if len(sizes) > 0 {
		parts = append(parts, strings.Join(sizes, ", "))
	}
	w := v.engines[0].run.wisconsin()
	if v.same(func(r *Run) string { return fmt.Sprint(r.wisconsin().Reps, r.wisconsin().Cache) }) {
		parts = append(parts, fmt.Sprintf("%d repetitions, %s cache", w.Reps, w.Cache))
	}
	if m := v.engines[0].run.Manifest; m != nil && v.same(engineMachine) {
		parts = append(parts, fmt.Sprintf("%s, %d cores, %s", m.System.CPUModel, m.System.CPUs, bytesLabel(m.System.MemoryBytes)))
	}
	return strings.Join(parts, " · ")
}

// same says whether every run gives the same key.
func (v *engineView) same(key func(*Run) string) bool {
	k := key(v.engines[0].run)
	for _, e := range v.engines[1:] {
		if key(e.run) != k {
			return false
		}
	}
	return true
}

// engineMachine identifies the machine a run was measured on ("" when unknown).
func engineMachine(r *Run) string {
	if r.Manifest == nil {
		return ""
	}
	s := r.Manifest.System
	return fmt.Sprint(s.Hostname, s.CPUModel, s.CPUs, s.MemoryBytes)
}

// warnings are each run's own warnings, named by engine, then what makes
// the runs less comparable than they look.
func (v *engineView) warnings() []string {
	var out []string
	for _, e := range v.engines {
		scratch := &Doc{}
		e.run.wisconsinWarnings(scratch, wisconsinSizes(e.run.wisconsin()))
		if e.run.Manifest != nil {
			scratch.Warnings = append(scratch.Warnings, e.run.Manifest.Notes...)
		}
		for _, w := range scratch.Warnings {
			out = append(out, e.label+": "+w)
		}
	}
	differ := func(what string, key func(*Run) string) {
		if v.same(key) {
			return
		}
		var each []string
		for _, e := range v.engines {
			each = append(each, e.label+" "+key(e.run))
		}
		out = append(out, fmt.Sprintf("the runs differ in %s (%s): the relative times mix that difference with the engines'", what, strings.Join(each, ", ")))
	}
	differ("repetitions", func(r *Run) string { return fmt.Sprint(r.wisconsin().Reps) })
	differ("cache", func(r *Run) string { return r.wisconsin().Cache })
	differ("relation sizes", func(r *Run) string { return fmt.Sprint(r.wisconsin().Sizes) })
	if !v.same(engineMachine) {
		out = append(out, "the runs were measured on different machines (see each run's manifest): the relative times mix the machines with the engines")
	}
	return out
}
