// Package ui is dbgauge's local web interface: a page per task, served
// from the binary (every template and asset embedded, nothing fetched
// from a network). It serves the history of runs from the catalog (the
// same list as dbgauge list), the files of the run directories (each
// run's report.html), the comparison of ticked runs (the same page as
// dbgauge compare), a run form per experiment, made from the command
// line's flags (forms.go), which launches runs as processes that outlive it
// (launch.go, jobs.go) and saves named profiles (profiles.go), and each
// run's live page (its live.jsonl as server-sent events, the buttons that
// stop, abort or mark it, and the replay of a finished run).
package ui

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// Options are the server's settings, checked by New.
type Options struct {
	// Dir is the directory of runs (runs/ by default on the command line).
	Dir string
	// Token, when not empty, is required on every request (see
	// requireToken); it must be set when the server listens on anything
	// but loopback (CheckListen).
	Token string
	// ReadOnly refuses what starts, stops or marks runs, or saves a
	// profile (403); the pages then show no such button.
	ReadOnly bool
	// Experiments are the command line's experiment commands, for the run
	// forms (nil: no forms).
	Experiments Experiments
	// Binary is the dbgauge executable a form's run is launched with.
	Binary string
	// Listen is the address the handler is served on, its port chosen
	// (the listener's Addr): every request's Host header must name it
	// (checkHost). Empty, no Host is checked: a handler that is not served
	// on a listener of its own (tests).
	Listen string
	// Hosts are further names a Host header may give (NAME, any port, or
	// NAME:PORT), e.g. the name a reverse proxy passes on.
	Hosts []string
}

//go:embed assets
var assets embed.FS

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html"))

// server holds what the handlers share; it keeps no state between
// requests (the catalog is read on each) but the runs it launched.
type server struct {
	opt Options
	// poll and heartbeat pace the live streams (pollEvery and
	// heartbeatEvery; tests shorten them); streams counts the streams
	// being served, so that a test can see each one end.
	poll, heartbeat time.Duration
	streams         atomic.Int64
	// csrf is the secret every form of the server carries (guard).
	csrf string
	jobs *jobs
}

// New returns the interface's handler for opt. The directory of runs must
// exist.
func New(opt Options) (*Handler, error) {
	if err := CheckDir(opt.Dir); err != nil {
		return nil, err
	}
	var err error
	var hosts *hostNames
	if opt.Listen != "" {
		if hosts, err = allowedHosts(opt.Listen, opt.Hosts); err != nil {
			return nil, fmt.Errorf("the names of %s: %w", opt.Listen, err)
		}
	}
	s := &server{opt: opt, poll: pollEvery, heartbeat: heartbeatEvery, csrf: newSecret(), jobs: loadJobs(opt.Dir)}
	return &Handler{Handler: checkHost(hosts, s.handler()), jobs: s.jobs, csrf: s.csrf}, nil
}

// CheckDir refuses a directory of runs that is not one.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return errors.New(dir + " is not a directory")
	}
	return nil
}

// handler routes the pages. Every request needs the token (when there is
// one); a POST must come from the interface's own pages (crossOrigin)
// and carry the secret of its forms (guard): every POST is one.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.history)
	mux.HandleFunc("GET /compare", s.compare)
	mux.HandleFunc("GET /runs/", s.runGet)
	mux.HandleFunc("POST /runs/", s.guard(s.control))
	mux.Handle("GET /assets/", http.FileServerFS(assets))
	mux.HandleFunc("GET /new", s.experiments)
	mux.HandleFunc("GET /new/{experiment}", s.showForm)
	mux.HandleFunc("POST /new/{experiment}/check", s.guard(s.checkForm))
	mux.HandleFunc("POST /new/{experiment}", s.guard(s.writes(s.launch)))
	mux.HandleFunc("POST /new/{experiment}/profiles", s.guard(s.writes(s.saveProfile)))
	mux.HandleFunc("GET /jobs", s.jobsPage)
	return requireToken(s.opt.Token, securityHeaders(crossOrigin(mux)))
}

// securityHeaders keeps the pages from being framed by another site.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}
