// Package progress shows what a long run is doing: a live line rewritten in
// place on a terminal, plain lines otherwise (logs, CI). A Printer also
// tees its permanent lines into the run's live stream (live.jsonl), so
// that the live page shows what the terminal shows.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/dbgauge/dbgauge/internal/live"
)

// Printer writes progress to w. The zero Printer prints nothing.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	live    bool // a live line is on screen
	last    time.Time
	Verbose bool
	// tee receives every permanent line as a KindLine event; the live
	// lines are not streamed: they are rewritten ten times a second, and
	// the stream has the figures they show as events of their own.
	tee *live.Writer
}

// Tee sends every permanent line from now on into w too (nil: no more).
func (p *Printer) Tee(w *live.Writer) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tee = w
}

// New returns a printer on w; live lines are used when w is a terminal.
func New(w io.Writer) *Printer {
	p := &Printer{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// Line prints a permanent line.
func (p *Printer) Line(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tee != nil {
		p.tee.Emit(live.Event{Kind: live.KindLine, Text: fmt.Sprintf(format, args...)})
	}
	if p.w == nil {
		return
	}
	if p.live {
		fmt.Fprint(p.w, "\r\033[K")
		p.live = false
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

// Live shows a transient status: rewritten in place on a terminal; on other
// writers printed at most every 5 seconds so logs stay readable.
func (p *Printer) Live(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.tty {
		if now.Sub(p.last) < 100*time.Millisecond {
			return
		}
		p.last = now
		fmt.Fprintf(p.w, "\r\033[K"+format, args...)
		p.live = true
		return
	}
	if now.Sub(p.last) < 5*time.Second {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, format+"\n", args...)
}
