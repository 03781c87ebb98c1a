package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/live"
)

// TestEventsResumeFromLastEventID follows a running run's stream: the
// events so far, then one the run appends while the client watches, each
// with the byte offset after it as its id; a client that reconnects with
// Last-Event-ID gets what follows that offset and nothing before.
func TestEventsResumeFromLastEventID(t *testing.T) {
	dir := runsDir(t)
	w, runDir, _ := liveRun(t, dir)
	w.Emit(startEvent())
	w.Emit(rateEvent(1, 1, 1, 100, 100))
	w.Emit(rateEvent(2, 1, 1, 210, 110))
	_, url := testServer(t, Options{Dir: dir}, 50*time.Millisecond)
	events := url + "/runs/" + runLive + "/events"

	c := openEvents(t, events)
	if ct := c.resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var got []sseEvent
	for range 3 {
		got = append(got, c.message(t))
	}
	w.Emit(cycleEvent(3, 1, 1, 300)) // appended while the page watches
	got = append(got, c.message(t))
	kinds := ""
	for _, e := range got {
		var ev live.Event
		if err := json.Unmarshal([]byte(e.data), &ev); err != nil {
			t.Fatalf("event %q: %v", e.data, err)
		}
		kinds += ev.Kind + " "
	}
	if kinds != "start rate rate cycle " {
		t.Errorf("the stream sent %q, want start rate rate cycle", kinds)
	}
	st, err := os.Stat(filepath.Join(runDir, live.File))
	if err != nil {
		t.Fatal(err)
	}
	if last := got[3].id; last != strconv.FormatInt(st.Size(), 10) {
		t.Errorf("the last event's id is %s, want the file's size %d", last, st.Size())
	}
	c.close()

	r := openEvents(t, events, "Last-Event-ID", got[1].id)
	for i, want := range []string{got[2].data, got[3].data} {
		if e := r.message(t); e.data != want || e.id != got[2+i].id {
			t.Errorf("after Last-Event-ID %s, event %d is %s (id %s), want %s (id %s)", got[1].id, i, e.data, e.id, want, got[2+i].id)
		}
	}
	if bad := openEvents(t, events, "Last-Event-ID", "nonsense"); bad.resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a Last-Event-ID that is no offset: status %d, want 400", bad.resp.StatusCode)
	}
}

// TestEventsEndWithTheClient checks that a stream's handler ends when the
// client goes away, though the run is quiet (no event, and no heartbeat
// due for an hour, to write into the closed connection): no stream is
// left following a file for nobody. A quiet stream sends heartbeats.
func TestEventsEndWithTheClient(t *testing.T) {
	dir := runsDir(t)
	w, _, _ := liveRun(t, dir)
	w.Emit(startEvent())
	_, url := testServer(t, Options{Dir: dir}, 50*time.Millisecond)
	c := openEvents(t, url+"/runs/"+runLive+"/events")
	c.message(t)
	for len(c.comments) == 0 { // within a few of the test's 50 ms heartbeats
		if _, ok := c.next(); !ok {
			t.Fatalf("the stream ended before a heartbeat: %v", c.sc.Err())
		}
	}

	s, url := testServer(t, Options{Dir: dir}, time.Hour)
	var clients []*sseClient
	for range 3 {
		c := openEvents(t, url+"/runs/"+runLive+"/events")
		c.message(t)
		clients = append(clients, c)
	}
	if n := s.streams.Load(); n != 3 {
		t.Fatalf("%d streams served, want 3", n)
	}
	for _, c := range clients {
		c.close()
	}
	waitFor(t, "every stream to end", func() bool { return s.streams.Load() == 0 })
}

// waitFor polls cond until it holds, failing after a bound far beyond
// what it takes (a bound, not a measurement).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
	}
}

// TestServeEndsStreams checks that stopping the interface (Ctrl-C) ends
// the live streams it serves, so that Serve returns cleanly instead of
// waiting out its grace period for streams that never end by themselves.
func TestServeEndsStreams(t *testing.T) {
	dir := runsDir(t)
	w, _, _ := liveRun(t, dir)
	w.Emit(startEvent())
	h := newUI(t, Options{Dir: dir})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, l, h) }()
	c := openEvents(t, "http://"+l.Addr().String()+"/runs/"+runLive+"/events")
	c.message(t)
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve with a stream open: %v", err)
	}
}

// TestReplay replays a finished run's stream at a high speed: every event
// arrives, in the order the run wrote them, then the end of the replay.
// A bad speed is one line naming the parameter.
func TestReplay(t *testing.T) {
	dir := runsDir(t)
	w, _, stop := liveRun(t, dir)
	const n = 40
	w.Emit(startEvent())
	for i := 1; i <= n; i++ {
		w.Emit(live.Event{Kind: live.KindLine, Time: at(0.05 * float64(i)), Text: fmt.Sprint("line ", i)})
	}
	w.Emit(live.Event{Kind: live.KindEnd, Time: at(3), End: &live.End{Complete: true}})
	stop()
	_, url := testServer(t, Options{Dir: dir}, 50*time.Millisecond)
	c := openEvents(t, url+"/runs/"+runLive+"/events?replay=1000")
	var lines []string
	kinds := map[string]int{}
	for {
		e, ok := c.next()
		if !ok {
			t.Fatalf("the replay ended without its eof event (%d lines): %v", len(lines), c.sc.Err())
		}
		if e.name == "eof" {
			break
		}
		if e.data == "" { // a comment
			continue
		}
		var ev live.Event
		if err := json.Unmarshal([]byte(e.data), &ev); err != nil {
			t.Fatal(err)
		}
		kinds[ev.Kind]++
		if ev.Kind == live.KindLine {
			lines = append(lines, ev.Text)
		}
	}
	if len(lines) != n || kinds[live.KindStart] != 1 || kinds[live.KindEnd] != 1 {
		t.Fatalf("replayed %d lines and %v, want %d lines, one start and one end", len(lines), kinds, n)
	}
	for i, l := range lines {
		if l != fmt.Sprint("line ", i+1) {
			t.Fatalf("line %d replayed as %q: out of order", i+1, l)
		}
	}
	for _, bad := range []string{"0", "-1", "fast", "1e9"} {
		code, body, _ := get(newUI(t, Options{Dir: dir}), "/runs/"+runLive+"/events?replay="+bad)
		if code != http.StatusBadRequest || body != fmt.Sprintf("replay=%q: give a speed between 0 and 10000 times the recorded pace, e.g. replay=10\n", bad) {
			t.Errorf("replay=%s: status %d %q", bad, code, body)
		}
	}
}
