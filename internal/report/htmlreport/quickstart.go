package htmlreport

import (
	"fmt"
	"html/template"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Quickstart is the page of a `dbgauge quickstart` directory dir, which
// holds one Wisconsin run per engine in dir/<engine>/run: what ran and
// each engine's headline (version, geometric mean relative to the fastest,
// cardinality checks) first, then the engines view (Engines), and links,
// relative to pageDir (the directory the caller writes the page into,
// normally dir itself), to each engine's own report. A run that is missing
// or is not a Wisconsin run is a warning; no run at all is an error.
func Quickstart(dir, pageDir string) (*Doc, error) {
	runs, warnings, err := quickstartRuns(dir)
	if err != nil {
		return nil, err
	}
	v, err := newEngineView(runs)
	if err != nil {
		return nil, err
	}
	d, err := v.doc()
	if err != nil {
		return nil, err
	}
	var labels []string
	for _, e := range v.engines {
		labels = append(labels, e.label)
	}
	d.Title = "dbgauge quickstart: " + strings.Join(labels, " and ") + " on the Wisconsin benchmark"
	d.Summary = append([]Headline{v.whatRan()}, d.Summary...)
	d.Warnings = append(warnings, d.Warnings...)
	d.Sections = append(d.Sections, Section{ID: "runs", Title: "Each engine's own report", HTML: v.linksHTML(pageDir)})
	d.Manifest = v.manifestRows()
	return d, nil
}

// quickstartRuns loads dir/*/run, in the order the runs started (the
// order the quickstart ran the engines); warnings say what could not be
// loaded.
func quickstartRuns(dir string) ([]*Run, []string, error) {
	subs, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("quickstart page: %w", err)
	}
	var runs []*Run
	var warnings []string
	for _, s := range subs {
		runDir := filepath.Join(dir, s.Name(), "run")
		if fi, err := os.Stat(runDir); !s.IsDir() || err != nil || !fi.IsDir() {
			continue
		}
		r, err := Load(runDir)
		switch {
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("%s: not shown: %v (the quickstart stopped before this engine's results were written?)", s.Name(), err))
		case r.wisconsin() == nil:
			warnings = append(warnings, fmt.Sprintf("%s/run: not shown: a %s run, not a Wisconsin run", s.Name(), r.Experiment))
		default:
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("%s: no Wisconsin run in %s/<engine>/run (is it a dbgauge quickstart directory?)", dir, dir)
	}
	slices.SortStableFunc(runs, func(a, b *Run) int { return quickstartStarted(a).Compare(quickstartStarted(b)) })
	return runs, warnings, nil
}

// quickstartStarted is when a run started; the zero time when its manifest is
// missing.
func quickstartStarted(r *Run) time.Time {
	if r.Manifest == nil {
		return time.Time{}
	}
	return r.Manifest.Started
}

// whatRan is the first headline: the benchmark, the size and how each
// query was measured.
func (v *engineView) whatRan() Headline {
	var sizes []string
	for _, n := range v.sizes() {
		sizes = append(sizes, fmt.Sprintf("N = %d", n))
	}
	h := Headline{Label: "Wisconsin benchmark", Value: strings.Join(sizes, ", ")}
	w := v.engines[0].run.wisconsin()
	h.Note = fmt.Sprintf("%d query results per engine, each checked for its expected number of rows", len(v.rows))
	if v.same(func(r *Run) string { return fmt.Sprint(r.wisconsin().Reps, r.wisconsin().Cache) }) {
		h.Note += fmt.Sprintf(" and timed %d times, %s cache", w.Reps, w.Cache)
	}
	return h
}

// linksHTML links each engine's report, results and tables, by paths
// relative to pageDir (where the page is written), so that the directory
// can be moved or copied and its links still work. What the page says
// depends on the runs' results alone, not on which files are there now:
// the same directory always gives the same page.
func (v *engineView) linksHTML(pageDir string) template.HTML {
	var b strings.Builder
	b.WriteString(`<ul>`)
	absPage, perr := filepath.Abs(pageDir)
	for _, e := range v.engines {
		absRun, err := filepath.Abs(e.run.Dir)
		rel := ""
		if err == nil && perr == nil {
			rel, err = filepath.Rel(absPage, absRun)
		}
		if err != nil || perr != nil {
			// not under dir: only the name, never an absolute path
			rel = engineRunName(e.run.Dir)
		}
		link := func(name string) string {
			return (&url.URL{Path: filepath.ToSlash(filepath.Join(rel, name))}).String()
		}
		fmt.Fprintf(&b, `<li><a href="%s">%s</a>: every query result with its repetitions, the loads and buffer ratio, seed 000's tables, the manifest`,
			esc(link("report.html")), esc(e.label))
		fmt.Fprintf(&b, `; also <a href="%s">results.json</a> and <a href="%s">tables.txt</a></li>`, esc(link("results.json")), esc(link("tables.txt")))
	}
	b.WriteString(`</ul>`)
	return template.HTML(b.String())
}
