package ui

import (
	"net/http"
	"path/filepath"
	"slices"

	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
	"github.com/dbgauge/dbgauge/internal/results"
)

// compare answers the ticked runs (?run=REL&run=REL...) with the page
// dbgauge compare writes, built by the same code: the first run is the
// baseline. Runs the catalog does not list are refused, as are fewer than
// two and runs of different experiments (with the command line's message).
func (s *server) compare(w http.ResponseWriter, r *http.Request) {
	picked := r.URL.Query()["run"]
	if len(picked) < 2 {
		showProblem(w, http.StatusBadRequest, "tick two or more runs to compare (the first ticked is the baseline)")
		return
	}
	entries, err := results.List(s.opt.Dir)
	if err != nil {
		showProblem(w, http.StatusInternalServerError, err.Error())
		return
	}
	dirs := make([]string, len(picked))
	for i, rel := range picked {
		if !slices.ContainsFunc(entries, func(e results.CatalogEntry) bool { return e.Path == rel }) {
			showProblem(w, http.StatusBadRequest, rel+": not a run of "+s.opt.Dir)
			return
		}
		dirs[i] = filepath.Join(s.opt.Dir, filepath.FromSlash(rel))
	}
	d, err := htmlreport.Compare(dirs)
	if err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	b, err := htmlreport.Render(d)
	if err != nil {
		showProblem(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b)
}
