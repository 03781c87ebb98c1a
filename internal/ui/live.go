package ui

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// runGet answers the pages of one run, /runs/REL/live and
// /runs/REL/events, for REL a run the catalog lists; any other path
// under /runs/ is a file of a run (runFile).
func (s *server) runGet(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/runs/")
	if rel, ok := strings.CutSuffix(name, "/live"); ok {
		e, dir, err := s.run(rel)
		switch {
		case errors.As(err, new(errNotRun)) && fs.ValidPath(rel):
			// The page a launched run's form leads to, perhaps before the
			// run has written its directory: it looks again.
			render(w, http.StatusNotFound, "pending.html", struct{ Rel, Dir string }{rel, s.opt.Dir})
		case err != nil:
			runFailed(w, err)
		default:
			s.livePage(w, r, dir, e)
		}
		return
	}
	if rel, ok := strings.CutSuffix(name, "/events"); ok {
		if _, dir, ok := s.runOr404(w, rel); ok {
			s.events(w, r, dir)
		}
		return
	}
	s.runFile(w, r)
}

// runOr404 finds the run rel, or answers why not and says no.
func (s *server) runOr404(w http.ResponseWriter, rel string) (results.CatalogEntry, string, bool) {
	e, dir, err := s.run(rel)
	if err != nil {
		runFailed(w, err)
		return e, dir, false
	}
	return e, dir, true
}

// runFailed answers a run that was not found (404) or a catalog that
// cannot be read (500).
func runFailed(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.As(err, new(errNotRun)) {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

// run finds the run rel (a catalog path) under the directory of runs.
func (s *server) run(rel string) (results.CatalogEntry, string, error) {
	entries, err := results.List(s.opt.Dir)
	if err != nil {
		return results.CatalogEntry{}, "", err
	}
	for _, e := range entries {
		if e.Path == rel {
			return e, filepath.Join(s.opt.Dir, filepath.FromSlash(rel)), nil
		}
	}
	return results.CatalogEntry{}, "", errNotRun{rel, s.opt.Dir}
}

type errNotRun struct{ rel, dir string }

func (e errNotRun) Error() string { return e.rel + ": not a run of " + e.dir }

// livePage is what the live template is given.
type livePage struct {
	Run results.CatalogEntry
	// Events and Control are the addresses of the run's stream and of
	// its requests; Report its report.html, empty when it has none.
	Events, Control, Report string
	// Stream says the run has a live.jsonl (or is running and will
	// write one); Running that it runs now.
	Stream, Running bool
	// Replay is the speed of a replay (0: follow the run).
	Replay   float64
	ReadOnly bool
	// CSRF is the secret the buttons' requests carry (guard).
	CSRF string
}

// livePage answers /runs/REL/live: the page that folds the run's events
// into its figures and charts (assets/live.js), or for a run that wrote
// no stream a line saying so and its report.
func (s *server) livePage(w http.ResponseWriter, r *http.Request, dir string, e results.CatalogEntry) {
	speed, err := replaySpeed(r)
	if err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	run, st, err := running(dir)
	if err != nil {
		showProblem(w, http.StatusInternalServerError, err.Error())
		return
	}
	p := livePage{
		Run: e, Events: runURL(e.Path, "events"), Control: runURL(e.Path, "control"),
		Stream: st.Exists || run, Running: run, Replay: speed, ReadOnly: s.opt.ReadOnly,
		CSRF: s.csrf,
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		p.Report = runURL(e.Path, "report.html")
	}
	render(w, http.StatusOK, "live.html", p)
}

// replayPace is the speed of the history's replay links: a ten-minute
// sweep replays in one.
const replayPace = "10"

// liveLinks are the history's links to the live page of the run in dir
// (rel in the catalog): live while it runs, replay once it has stopped;
// none when it wrote no stream. Only a run whose journal is held has its
// stream read (for an end), so the history of many finished runs costs a
// stat and a lock attempt each.
func liveLinks(dir, rel string) (follow, replay string) {
	if _, err := os.Stat(filepath.Join(dir, live.File)); err != nil {
		return "", ""
	}
	page := runURL(rel, "live")
	if results.RunBusy(dir) {
		if st, err := readStreamState(dir); err == nil && !st.Ended {
			return page, ""
		}
	}
	return "", page + "?replay=" + replayPace
}
