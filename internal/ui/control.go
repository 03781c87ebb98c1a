package ui

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/dbgauge/dbgauge/internal/live"
)

// maxMark bounds a mark's text: it is a note on a chart, not a log.
const maxMark = 200

// readOnlyLine is the refusal of a request that would change a run.
const readOnlyLine = "the interface is read-only (dbgauge ui --read-only): it does not stop, abort or mark runs"

// control answers POST /runs/REL/control (form fields action=stop, abort
// or mark, and text for a mark) by appending the request to the run's
// control.jsonl, which the run reads about every second. Only a run the
// catalog lists, that runs now (its stream has no end, its journal is
// held), is asked anything. Each answer is one line of text.
func (s *server) control(w http.ResponseWriter, r *http.Request) {
	if s.opt.ReadOnly {
		http.Error(w, readOnlyLine, http.StatusForbidden)
		return
	}
	rel, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/runs/"), "/control")
	if !ok {
		http.Error(w, "only a run's control takes requests: POST /runs/RUN/control", http.StatusNotFound)
		return
	}
	_, dir, ok := s.runOr404(w, rel)
	if !ok {
		return
	}
	req, err := parseRequest(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	run, st, err := running(dir)
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	case !st.Exists && !run:
		http.Error(w, rel+" wrote no live stream, so it reads no requests", http.StatusConflict)
		return
	case st.Ended:
		http.Error(w, rel+" has ended: there is nothing to stop, abort or mark", http.StatusConflict)
		return
	case !run:
		http.Error(w, rel+" is not running (no process writes it, and no end was recorded)", http.StatusConflict)
		return
	}
	if err := live.Ask(dir, req); err != nil {
		http.Error(w, "the request was not written: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, asked(req))
}

// parseRequest reads the form into a request.
func parseRequest(r *http.Request) (live.Request, error) {
	r.Body = http.MaxBytesReader(nil, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		return live.Request{}, fmt.Errorf("the request is not a form: %v", err)
	}
	switch a := r.PostForm.Get("action"); a {
	case "stop":
		return live.Request{Stop: true}, nil
	case "abort":
		return live.Request{Abort: true}, nil
	case "mark":
		text := strings.TrimSpace(r.PostForm.Get("text"))
		if text == "" || utf8.RuneCountInString(text) > maxMark || strings.ContainsAny(text, "\r\n") {
			return live.Request{}, fmt.Errorf("text: give the mark one line of 1 to %d characters, e.g. killed node 2", maxMark)
		}
		return live.Request{Mark: text}, nil
	default:
		return live.Request{}, fmt.Errorf("action=%q: give action=stop, abort or mark", a)
	}
}

// asked is the line that confirms a request.
func asked(req live.Request) string {
	switch {
	case req.Stop:
		return "asked the run to stop at the end of the cycle in flight"
	case req.Abort:
		return "asked the run to abort now"
	}
	return "asked the run to mark " + fmt.Sprintf("%q", req.Mark)
}
