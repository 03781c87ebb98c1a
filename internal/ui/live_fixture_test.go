package ui

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// runLive is a dsbench run that is still running in the live tests.
const runLive = "20250101T000004Z-dsbench"

// liveRun adds to the directory of runs a dsbench run that runs: its
// manifest and no results.json yet, its journal held open as a running
// dbgauge holds it (the lock the interface asks), and a live.Writer on its
// stream for the test to write the run's events with. stop closes the
// journal, as a run that ends (or is killed) does.
func liveRun(t *testing.T, dir string) (w *live.Writer, runDir string, stop func()) {
	t.Helper()
	runDir = filepath.Join(dir, runLive)
	copyDir(t, filepath.Join(stored, "dsbench"), runDir)
	if err := os.Remove(filepath.Join(runDir, results.ResultsFile)); err != nil {
		t.Fatal(err)
	}
	j, err := results.OpenJournal(filepath.Join(runDir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	w, err = live.Create(filepath.Join(runDir, live.File))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); j.Close() })
	return w, runDir, func() { j.Close() }
}

// started is when the fixture streams' runs started: a minute before the
// tests, so that a live page's elapsed time reads as a real run's would.
var started = time.Now().UTC().Truncate(time.Second).Add(-time.Minute)

// at is a time of the fixture streams, sec seconds after the start.
func at(sec float64) time.Time {
	return started.Add(time.Duration(sec * float64(time.Second)))
}

// startEvent opens a dsbench run of two scales of two cycles.
func startEvent() live.Event {
	return live.Event{Kind: live.KindStart, Time: at(0), Start: &live.Start{
		Experiment: "dsbench", Engine: "sqlite", Dir: runLive, PID: 1,
		Scales: []int64{1, 10}, Cycles: 2, Duration: 2 * time.Second}}
}

// rateEvent is the load of a cycle so far.
func rateEvent(sec float64, scale int64, cycle int, committed int64, tps float64) live.Event {
	return live.Event{Kind: live.KindRate, Time: at(sec), Scale: scale, Cycle: cycle, Rate: &live.Rate{
		Committed: committed, Failed: 1, TPS: tps, P50: 1.5, P95: 3, P99: 7, ETA: 5 * time.Second,
		Errors: map[string]int64{"conflict": 1}}}
}

// cycleEvent is a finished cycle's final counts.
func cycleEvent(sec float64, scale int64, cycle int, committed int64) live.Event {
	return live.Event{Kind: live.KindCycle, Time: at(sec), Scale: scale, Cycle: cycle, Rate: &live.Rate{
		Committed: committed, Failed: 1, TPS: float64(committed) / 2, Errors: map[string]int64{"conflict": 1}}}
}

// sseEvent is one server-sent event as a client reads it.
type sseEvent struct{ name, id, data string }

// sseClient reads a stream of server-sent events.
type sseClient struct {
	resp   *http.Response
	sc     *bufio.Scanner
	cancel context.CancelFunc
	// comments are the SSE comments (heartbeats) read so far.
	comments []string
}

// openEvents requests url with the headers given in pairs; the stream
// ends with the test, or with close.
func openEvents(t *testing.T, url string, hdr ...string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	c := &sseClient{resp: resp, sc: bufio.NewScanner(resp.Body), cancel: cancel}
	t.Cleanup(c.close)
	return c
}

func (c *sseClient) close() { c.cancel(); c.resp.Body.Close() }

// next returns the next event, or an empty one after a comment (kept in
// comments); false at the stream's end.
func (c *sseClient) next() (sseEvent, bool) {
	var e sseEvent
	for c.sc.Scan() {
		line := c.sc.Text()
		switch {
		case line == "":
			return e, true
		case strings.HasPrefix(line, ":"):
			c.comments = append(c.comments, strings.TrimSpace(line[1:]))
		case strings.HasPrefix(line, "event: "):
			e.name = line[len("event: "):]
		case strings.HasPrefix(line, "id: "):
			e.id = line[len("id: "):]
		case strings.HasPrefix(line, "data: "):
			e.data = line[len("data: "):]
		}
	}
	return e, false
}

// message returns the next event of the stream's lines (named events
// such as "running" are skipped).
func (c *sseClient) message(t *testing.T) sseEvent {
	t.Helper()
	for {
		e, ok := c.next()
		if !ok {
			t.Fatalf("the stream ended: %v", c.sc.Err())
		}
		if e.name == "" && e.data != "" {
			return e
		}
	}
}

// testServer is the interface over dir with a short poll and the
// heartbeat given, so that the tests need not wait 15 s for one.
func testServer(t *testing.T, opt Options, heartbeat time.Duration) (*server, string) {
	t.Helper()
	if _, err := New(opt); err != nil {
		t.Fatal(err)
	}
	s := &server{opt: opt, poll: 10 * time.Millisecond, heartbeat: heartbeat}
	srv := httptest.NewServer(s.handler())
	t.Cleanup(srv.Close)
	return s, srv.URL
}
