package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// filter is the history page's query: each field empty for "any".
type filter struct {
	Experiment, Engine, Status string
	// From and To are days (YYYY-MM-DD, UTC), both included.
	From, To string
	from, to time.Time
}

// parseFilter reads the filter from the query; a malformed date is an
// error naming the field and the form it wants.
func parseFilter(q url.Values) (filter, error) {
	f := filter{Experiment: q.Get("experiment"), Engine: q.Get("engine"), Status: q.Get("status"), From: q.Get("from"), To: q.Get("to")}
	for _, d := range []struct {
		name, text string
		at         *time.Time
	}{{"from", f.From, &f.from}, {"to", f.To, &f.to}} {
		if d.text == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, d.text)
		if err != nil {
			return f, fmt.Errorf("%s=%q: give a day as YYYY-MM-DD, e.g. %s=2025-01-31", d.name, d.text, d.name)
		}
		*d.at = t
	}
	return f, nil
}

// keeps tells whether e passes the filter. A run with no start time (no
// manifest) passes a date filter only when none is set.
func (f filter) keeps(e results.CatalogEntry) bool {
	switch {
	case f.Experiment != "" && e.Experiment != f.Experiment,
		f.Engine != "" && e.Engine != f.Engine,
		f.Status != "" && e.Status() != f.Status,
		!f.from.IsZero() && e.Started.Before(f.from),
		!f.to.IsZero() && !e.Started.Before(f.to.AddDate(0, 0, 1)):
		return false
	}
	return true
}

// historyRow is one run as the page shows it.
type historyRow struct {
	results.CatalogEntry
	// Report is the link to its report.html, empty when it has none.
	Report string
	// Live is the link to its live page when it runs, Replay when it
	// wrote a live stream and no longer runs; both empty for a run with
	// no stream.
	Live, Replay string
}

// historyPage is what the history template is given.
type historyPage struct {
	Filter                         filter
	Experiments, Engines, Statuses []string
	Rows                           []historyRow
	Total                          int
	Dir                            string
	Problem                        string
}

// history lists the runs under the directory of runs, newest first, from
// the catalog (results.List, as dbgauge list).
func (s *server) history(w http.ResponseWriter, r *http.Request) {
	entries, err := results.List(s.opt.Dir)
	if err != nil {
		showProblem(w, http.StatusInternalServerError, err.Error())
		return
	}
	p := historyPage{Dir: s.opt.Dir, Total: len(entries), Statuses: []string{"complete", "failed", "incomplete", "unfinished"}}
	f, err := parseFilter(r.URL.Query())
	p.Filter = f
	code := http.StatusOK
	if err != nil {
		p.Problem = err.Error()
		code = http.StatusBadRequest
	}
	for _, e := range entries {
		p.Experiments = appendNew(p.Experiments, e.Experiment)
		p.Engines = appendNew(p.Engines, e.Engine)
		if err != nil || !f.keeps(e) {
			continue
		}
		row := historyRow{CatalogEntry: e}
		if _, serr := os.Stat(filepath.Join(s.opt.Dir, filepath.FromSlash(e.Path), "report.html")); serr == nil {
			row.Report = runURL(e.Path, "report.html")
		}
		row.Live, row.Replay = liveLinks(filepath.Join(s.opt.Dir, filepath.FromSlash(e.Path)), e.Path)
		p.Rows = append(p.Rows, row)
	}
	slices.Sort(p.Experiments)
	slices.Sort(p.Engines)
	render(w, code, "history.html", p)
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// runURL is the address of a file of the run directory rel.
func runURL(rel, file string) string {
	return (&url.URL{Path: "/runs/" + rel + "/" + file}).EscapedPath()
}
