package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Pacing of a followed stream. The run writes about an event a second,
// so a quarter-second poll shows each within a blink at the cost of one
// read of an unchanged file; the heartbeat keeps proxies and the
// browser from taking a quiet stream (a long populate) for a dead one.
const (
	pollEvery      = 250 * time.Millisecond
	heartbeatEvery = 15 * time.Second
	// busyEvery is how often a followed stream asks whether its run
	// still runs (a flock on the journal), to tell the page when it was
	// killed without an end event.
	busyEvery = 2 * time.Second
)

// events answers /runs/REL/events: the run's live.jsonl as server-sent
// events, one per line, each with the byte offset after it as its id, so
// that a reconnecting EventSource (Last-Event-ID) resumes where it left.
// Without ?replay it follows the file until the client goes away; with
// ?replay=SPEED it sends what the file holds with its recorded pacing
// divided by SPEED, then an "eof" event, and ends.
func (s *server) events(w http.ResponseWriter, r *http.Request, dir string) {
	from, err := lastEventID(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	speed, err := replaySpeed(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.streams.Add(1)
	defer s.streams.Add(-1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	out := sse{w: w, rc: http.NewResponseController(w)}
	t := newTail(filepath.Join(dir, live.File), from)
	defer t.close()
	if speed > 0 {
		s.replay(r, out, t, speed)
		return
	}
	s.follow(r, out, t, dir)
}

// follow sends every whole line of the stream, then each new one as the
// run appends it, until the client goes away (its request's context is
// done, which Serve also does when the interface stops).
func (s *server) follow(r *http.Request, out sse, t *tail, dir string) {
	poll := time.NewTicker(s.poll)
	defer poll.Stop()
	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	busy := time.NewTicker(busyEvery)
	defer busy.Stop()
	wasBusy := results.RunBusy(dir)
	if out.send("running", "", strconv.FormatBool(wasBusy)) != nil {
		return
	}
	for {
		for {
			line, end, ok, err := t.next()
			if err != nil {
				out.comment("the stream cannot be read: " + err.Error())
				return
			}
			if !ok {
				break
			}
			if out.send("", strconv.FormatInt(end, 10), string(line)) != nil {
				return
			}
		}
		if out.flush() != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-poll.C:
		case <-heartbeat.C:
			if out.comment("heartbeat") != nil {
				return
			}
		case <-busy.C:
			if b := results.RunBusy(dir); b != wasBusy {
				wasBusy = b
				if out.send("running", "", strconv.FormatBool(b)) != nil {
					return
				}
			}
		}
	}
}

// maxReplayWait bounds the wait between two replayed events: a run that
// stood paused for an hour (--pause-on-error) replays its pause in at
// most this.
const maxReplayWait = 5 * time.Second

// replay sends the stream as the run wrote it, each event after the
// recorded time since the one before divided by speed.
func (s *server) replay(r *http.Request, out sse, t *tail, speed float64) {
	var last time.Time
	for {
		line, end, ok, err := t.next()
		if err != nil {
			out.comment("the stream cannot be read: " + err.Error())
			return
		}
		if !ok {
			out.send("eof", "", "the replay is over")
			out.flush()
			return
		}
		var e struct{ Time time.Time }
		if json.Unmarshal(line, &e) == nil && !e.Time.IsZero() {
			if !last.IsZero() && e.Time.After(last) {
				wait := min(time.Duration(float64(e.Time.Sub(last))/speed), maxReplayWait)
				if out.flush() != nil || !sleep(r, wait) {
					return
				}
			}
			last = e.Time
		}
		if out.send("", strconv.FormatInt(end, 10), string(line)) != nil {
			return
		}
	}
}

// sleep waits d, or less when the client goes away (then false).
func sleep(r *http.Request, d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-r.Context().Done():
		return false
	case <-tm.C:
		return true
	}
}

// lastEventID is the offset to resume from: the Last-Event-ID an
// EventSource sends when it reconnects, else the start.
func lastEventID(r *http.Request) (int64, error) {
	id := r.Header.Get("Last-Event-ID")
	if id == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("Last-Event-ID %q: not an offset of the stream; reload the page", id)
	}
	return n, nil
}

// replaySpeed reads ?replay=SPEED: 0 when absent (follow the run).
func replaySpeed(r *http.Request) (float64, error) {
	q := r.URL.Query().Get("replay")
	if q == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(q, 64)
	if err != nil || !(v > 0 && v <= 10000) {
		return 0, fmt.Errorf("replay=%q: give a speed between 0 and 10000 times the recorded pace, e.g. replay=10", q)
	}
	return v, nil
}

// sse writes server-sent events.
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// send writes one event: a name (empty for the default "message"), an
// id (empty for none) and one line of data.
func (o sse) send(event, id, data string) error {
	msg := ""
	if event != "" {
		msg += "event: " + event + "\n"
	}
	if id != "" {
		msg += "id: " + id + "\n"
	}
	_, err := fmt.Fprintf(o.w, "%sdata: %s\n\n", msg, data)
	return err
}

// comment writes an SSE comment (ignored by the browser) and flushes.
func (o sse) comment(text string) error {
	if _, err := fmt.Fprintf(o.w, ": %s\n\n", text); err != nil {
		return err
	}
	return o.flush()
}

func (o sse) flush() error { return o.rc.Flush() }
