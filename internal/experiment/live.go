package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Live is a run's side of the live page: its event stream (live.jsonl)
// and its viewers' requests (control.jsonl). The command makes one per
// run (NewLive) and hands it over in Setup; the experiment attaches it
// once its run directory exists legitimately (open, or storage's own
// Create), so that bad input still leaves nothing written; the command
// ends it (End) when the run has written its results. A nil *Live does
// nothing: experiments run from tests without a command have no stream.
type Live struct {
	pr *progress.Printer
	// abort cancels the run's context, as Ctrl-C does.
	abort context.CancelCauseFunc
	// unitStops says the experiment ends at a unit boundary when asked
	// (its kind has units): otherwise a stop is an abort.
	unitStops bool

	mu  sync.Mutex
	w   *live.Writer
	dir string
	// quit and done stop the watcher of requests and wait for it.
	quit, done chan struct{}
	// plan is a load run's plan, which KindStart carries.
	plan live.Start

	// stopping is set, and stopped closed, once a viewer asks for a stop.
	stopping atomic.Bool
	stopped  chan struct{}
}

// NewLive returns the live side of a run printing on pr whose context
// abort cancels. unitStops: the experiment can stop between its units.
func NewLive(pr *progress.Printer, abort context.CancelCauseFunc, unitStops bool) *Live {
	return &Live{pr: pr, abort: abort, unitStops: unitStops, stopped: make(chan struct{})}
}

// ErrAborted is the cause of a run aborted at a viewer's request.
var ErrAborted = errors.New("aborted at a viewer's request (dbgauge stop --abort, or the live page)")

// errStopped is the end of a run stopped at a viewer's request at the
// end of its cycle or unit in flight.
var errStopped = errors.New("stopped at a viewer's request")

// IsStopped tells whether err ends a run that a viewer stopped.
func IsStopped(err error) bool { return errors.Is(err, errStopped) }

// requestsEvery is how often a running run reads its requests: a viewer's
// mark lands within about a second, and reading a small file that often
// costs nothing.
const requestsEvery = time.Second

// loadPlan sets the plan of a load run that KindStart carries; call it
// before open.
func (l *Live) loadPlan(scales []int64, cycles int, d time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.plan.Scales, l.plan.Cycles, l.plan.Duration = scales, cycles, d
}

// attach starts the stream of run (appended to when the run is resumed),
// says KindStart, tees the printer's lines into it and starts reading the
// requests. A stream that cannot be created is a warning: the run goes
// on, and the requests are still read.
func (l *Live) attach(run *results.Run, experiment, engine string, resumed bool) {
	if l == nil || l.attached() {
		return // one stream per run, whoever opens it again
	}
	w, err := live.Create(run.Path(live.File))
	if err != nil {
		l.pr.Line("warning: no live stream: %v", err)
	}
	// Requests written before this part of the run began (the stop that
	// ended a resumed run's first part) are not this part's.
	offset := int64(0)
	if st, err := os.Stat(run.Path(live.ControlFile)); err == nil {
		offset = st.Size()
	}
	l.mu.Lock()
	l.w, l.dir = w, run.Dir
	start := l.plan
	quit, done := make(chan struct{}), make(chan struct{})
	l.quit, l.done = quit, done
	l.mu.Unlock()
	start.Experiment, start.Engine, start.Dir, start.PID, start.Resumed = experiment, engine, run.Dir, os.Getpid(), resumed
	w.Emit(live.Event{Kind: live.KindStart, Start: &start})
	l.pr.Tee(w)
	go l.watch(run, offset, quit, done)
}

// attached tells whether the run's stream has begun (and not ended).
func (l *Live) attached() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.quit != nil
}

// emit appends e to the stream, if there is one.
func (l *Live) emit(e live.Event) {
	if l == nil {
		return
	}
	l.mu.Lock()
	w := l.w
	l.mu.Unlock()
	w.Emit(e)
}

// phase says what the run does now, for scale x.
func (l *Live) phase(x int64, phase string) {
	l.emit(live.Event{Kind: live.KindPhase, Scale: x, Phase: phase})
}

// stopRequested tells whether a viewer asked the run to stop at the end
// of its cycle or unit in flight.
func (l *Live) stopRequested() bool { return l != nil && l.stopping.Load() }

// stopC is closed once a viewer asks for a stop (nil, never closed,
// without a Live): a run waiting between tries of a unit ends on it.
func (l *Live) stopC() <-chan struct{} {
	if l == nil {
		return nil
	}
	return l.stopped
}

// stopErr is the error of a run stopped at a viewer's request.
func (l *Live) stopErr() error {
	return fmt.Errorf("%w: everything measured is kept; `dbgauge resume %s` continues the run", errStopped, l.dir)
}

// watch reads the requests appended to control.jsonl from offset on,
// every requestsEvery, until quit is closed (End); it closes done.
func (l *Live) watch(run *results.Run, offset int64, quit, done chan struct{}) {
	defer close(done)
	path := run.Path(live.ControlFile)
	t := time.NewTicker(requestsEvery)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
		}
		reqs, next, err := live.ReadRequests(path, offset)
		offset = next
		if err != nil {
			l.pr.Line("warning: %v: skipped", err)
		}
		for _, r := range reqs {
			l.obey(run, r)
		}
	}
}

// obey carries out one request.
func (l *Live) obey(run *results.Run, r live.Request) {
	switch {
	case r.Mark != "":
		// In the journal, as every measurement: the mark is part of the
		// run's record, shown on its charts when it is replayed.
		run.Journal().Append(results.MarkEntry{Text: r.Mark, At: r.Time})
		l.emit(live.Event{Kind: live.KindMark, Time: r.Time, Text: r.Mark})
		l.pr.Line("mark: %s", r.Mark)
	case r.Abort:
		l.pr.Line("abort requested: the run ends now, keeping every finished cycle")
		l.abort(ErrAborted)
	case r.Stop && !l.unitStops:
		l.pr.Line("stop requested: this experiment cannot stop between units, so it ends now, keeping what was measured")
		l.abort(fmt.Errorf("%w (this experiment cannot stop between units: ended at once)", errStopped))
	case r.Stop:
		if !l.stopping.Swap(true) {
			l.pr.Line("stop requested: the run ends when the cycle in flight ends")
			close(l.stopped)
		}
	}
}

// End closes the stream with KindEnd (complete, or the error) once the
// run has written its results, and stops reading requests. A run never
// attached (bad input) writes nothing.
func (l *Live) End(complete bool, errText string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	quit, done, w := l.quit, l.done, l.w
	l.quit, l.w = nil, nil
	l.mu.Unlock()
	if quit == nil {
		return
	}
	close(quit)
	<-done
	l.pr.Tee(nil)
	w.Emit(live.Event{Kind: live.KindEnd, End: &live.End{Complete: complete, Error: errText}})
	if err := w.Close(); err != nil {
		l.pr.Line("warning: the live stream is incomplete: %v", err)
	}
}
