package ui

import (
	"bytes"
	"sync"
)

// lastLines keeps the last lines written to it (a child's stderr): the jobs
// page shows them, and a run refused at once (exit code 2) has its one
// line there. A line longer than maxLine is cut.
type lastLines struct {
	mu    sync.Mutex
	max   int
	lines []string
	part  []byte
}

const maxLine = 4096

func newLastLines(max int) *lastLines { return &lastLines{max: max} }

// Write takes lines ended by \n or \r (a progress bar's redraw).
func (t *lastLines) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			t.part = append(t.part, b[:min(len(b), maxLine-len(t.part))]...)
			break
		}
		t.part = append(t.part, b[:min(i, maxLine-len(t.part))]...)
		if len(t.part) > 0 {
			t.lines = append(t.lines, string(t.part))
			if len(t.lines) > t.max {
				t.lines = t.lines[len(t.lines)-t.max:]
			}
		}
		t.part = t.part[:0]
		b = b[i+1:]
	}
	return n, nil
}

// Lines are the last lines, an unfinished one last.
func (t *lastLines) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.part) > 0 {
		out = append(out, string(t.part))
	}
	return out
}
