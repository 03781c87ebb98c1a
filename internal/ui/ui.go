// Package ui is dbgauge's local web interface: a page per task, served
// from the binary (every template and asset embedded, nothing fetched
// from a network). It serves the history of runs from the catalog (the
// same list as dbgauge list), the files of the run directories (each
// run's report.html), the comparison of ticked runs (the same page as
// dbgauge compare), and each run's live page (its
// live.jsonl as server-sent events, the buttons that stop, abort or mark
// it, and the replay of a finished run).
package ui

import (
	"embed"
	"errors"
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
	// ReadOnly refuses the requests that change a run (stop, abort,
	// mark: 403) and hides their buttons.
	ReadOnly bool
}

//go:embed assets
var assets embed.FS

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html"))

// server holds what the handlers share; it keeps no state between
// requests (the catalog is read on each).
type server struct {
	opt Options
	// poll and heartbeat pace the live streams (pollEvery and
	// heartbeatEvery; tests shorten them); streams counts the streams
	// being served, so that a test can see each one end.
	poll, heartbeat time.Duration
	streams         atomic.Int64
}

// New returns the interface's handler for opt. The directory of runs must
// exist.
func New(opt Options) (http.Handler, error) {
	st, err := os.Stat(opt.Dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New(opt.Dir + " is not a directory")
	}
	s := &server{opt: opt, poll: pollEvery, heartbeat: heartbeatEvery}
	return s.handler(), nil
}

// handler routes the pages. Every request needs the token (when there is
// one); a POST must come from the interface's own pages (crossOrigin).
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.history)
	mux.HandleFunc("GET /compare", s.compare)
	mux.HandleFunc("GET /runs/", s.runGet)
	mux.HandleFunc("POST /runs/", s.control)
	mux.Handle("GET /assets/", http.FileServerFS(assets))
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
