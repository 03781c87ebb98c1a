package ui

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/live"
)

// TestLivePage checks what the live page is given: a running run's page
// follows its stream and has the buttons (not when read-only, nor in a
// replay); a run that wrote no stream says so and links its report; a
// path that is no run is not found.
func TestLivePage(t *testing.T) {
	dir := runsDir(t)
	w, _, _ := liveRun(t, dir)
	w.Emit(startEvent())
	h := newUI(t, Options{Dir: dir})
	page := "/runs/" + runLive + "/live"
	code, body, _ := get(h, page)
	for _, want := range []string{`data-events="/runs/` + runLive + `/events"`, `data-running="true"`, `<form id="control" method="post" action="/runs/` + runLive + `/control">`, `/assets/uplot/uPlot.iife.min.js`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("the live page: status %d, no %q\n%s", code, want, body)
		}
	}
	for _, c := range []struct {
		h      http.Handler
		target string
	}{{newUI(t, Options{Dir: dir, ReadOnly: true}), page}, {h, page + "?replay=10"}} {
		if code, body, _ := get(c.h, c.target); code != http.StatusOK || strings.Contains(body, `id="control"`) || !strings.Contains(body, "data-events") {
			t.Errorf("%s: status %d, want the page without its buttons\n%s", c.target, code, body)
		}
	}
	code, body, _ = get(h, "/runs/"+runA+"/live")
	if code != http.StatusOK || !strings.Contains(body, "This run wrote no live stream") || !strings.Contains(body, `href="/runs/`+runA+`/report.html"`) || strings.Contains(body, "data-events") {
		t.Errorf("a run without a stream: status %d\n%s", code, body)
	}
	// A run launched a moment ago may not have written its directory yet:
	// its page says so and looks again until it appears.
	code, body, _ = get(h, "/runs/20250101T000009Z-dsbench/live")
	if code != http.StatusNotFound || !strings.Contains(body, `http-equiv="refresh"`) || !strings.Contains(body, "is not a run of") {
		t.Errorf("a run not yet there: status %d\n%s", code, body)
	}
	copyDir(t, filepath.Join(stored, "dsbench"), filepath.Join(dir, "20250101T000009Z-dsbench"))
	if code, body, _ := get(h, "/runs/20250101T000009Z-dsbench/live"); code != http.StatusOK || !strings.Contains(body, "This run wrote no live stream") {
		t.Errorf("the run once there: status %d\n%s", code, body)
	}
	for _, target := range []string{"/runs/nonesuch/events", "/runs/" + runA + "/../" + runA + "x/live", "/runs/%2e%2e/live"} {
		if code, _, _ := get(h, target); code/100 == 2 {
			t.Errorf("%s: status %d, want a refusal", target, code)
		}
	}
	if code, _, _ := get(h, page+"?replay=fast"); code != http.StatusBadRequest {
		t.Errorf("replay=fast: status %d, want 400", code)
	}
	if code, body, _ := get(h, "/assets/uplot/uPlot.iife.min.js"); code != http.StatusOK || !strings.Contains(body, "uPlot") {
		t.Errorf("uPlot is not served: status %d", code)
	}
}

// TestHistoryLiveLinks checks the history's links: "live" for a run that
// runs, "replay" for one that wrote a stream and stopped (ended, or
// killed without an end), none for a run without a stream.
func TestHistoryLiveLinks(t *testing.T) {
	dir := runsDir(t)
	w, _, stop := liveRun(t, dir)
	w.Emit(startEvent())
	h := newUI(t, Options{Dir: dir})
	liveLink := `<a class="live" href="/runs/` + runLive + `/live">live</a>`
	replayLink := `<a class="replay" href="/runs/` + runLive + `/live?replay=10">replay</a>`
	links := func() (live, replay int) {
		_, body, _ := get(h, "/")
		return strings.Count(body, `class="live"`), strings.Count(body, `class="replay"`)
	}
	_, body, _ := get(h, "/")
	if !strings.Contains(body, liveLink) {
		t.Errorf("a running run has no live link:\n%s", body)
	}
	if l, r := links(); l != 1 || r != 0 {
		t.Errorf("%d live and %d replay links, want 1 and 0", l, r)
	}
	w.Emit(live.Event{Kind: live.KindEnd, End: &live.End{Complete: true}})
	_, body, _ = get(h, "/")
	if !strings.Contains(body, replayLink) || strings.Contains(body, liveLink) {
		t.Errorf("an ended run has no replay link:\n%s", body)
	}
	w.Emit(startEvent()) // resumed: running again
	if l, r := links(); l != 1 || r != 0 {
		t.Errorf("resumed: %d live and %d replay links, want 1 and 0", l, r)
	}
	stop() // killed
	if l, r := links(); l != 0 || r != 1 {
		t.Errorf("killed: %d live and %d replay links, want 0 and 1", l, r)
	}
}
