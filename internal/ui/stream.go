package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// tail reads the whole lines appended to a run's live.jsonl, from an
// offset on, as the run writes them. A line the run is still writing
// (no newline yet) is kept back until it is whole, so a reader never
// sees half an event; the offset after each line is its SSE id.
type tail struct {
	path   string
	f      *os.File
	r      *bufio.Reader
	offset int64  // just after the last whole line returned
	part   []byte // the start of a line not yet whole
}

// newTail follows path from offset. The file need not exist yet (a run
// that has just started); it is opened when it appears.
func newTail(path string, offset int64) *tail {
	return &tail{path: path, offset: offset}
}

// next returns the next whole line (without its newline) and the offset
// just after it, or ok false when there is none yet.
func (t *tail) next() (line []byte, end int64, ok bool, err error) {
	if t.f == nil {
		f, err := os.Open(t.path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, t.offset, false, nil
		}
		if err != nil {
			return nil, t.offset, false, err
		}
		if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
			f.Close()
			return nil, t.offset, false, err
		}
		t.f, t.r = f, bufio.NewReader(f)
	}
	for {
		b, err := t.r.ReadBytes('\n')
		t.part = append(t.part, b...)
		if errors.Is(err, io.EOF) {
			// bufio forgets the EOF once returned: the next call reads
			// what the run appended meanwhile.
			return nil, t.offset, false, nil
		}
		if err != nil {
			return nil, t.offset, false, err
		}
		line = bytes.TrimSpace(t.part)
		t.offset += int64(len(t.part))
		t.part = t.part[:0]
		if len(line) > 0 {
			return bytes.Clone(line), t.offset, true, nil
		}
	}
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
	}
}

// streamState is what a run's live.jsonl says of it: whether there is
// one, and whether its last part (a resumed run appends a new start) ends.
type streamState struct {
	Exists, Ended bool
}

// readStreamState reads the kinds of the events in the run dir's stream.
func readStreamState(dir string) (streamState, error) {
	t := newTail(filepath.Join(dir, live.File), 0)
	defer t.close()
	var st streamState
	if _, err := os.Stat(t.path); errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	st.Exists = true
	for {
		line, _, ok, err := t.next()
		if err != nil || !ok {
			return st, err
		}
		var e struct{ Kind string }
		if json.Unmarshal(line, &e) != nil {
			continue // a damaged line says nothing of the run's end
		}
		switch e.Kind {
		case live.KindStart:
			st.Ended = false
		case live.KindEnd:
			st.Ended = true
		}
	}
}

// running tells whether the run in dir is going on now: its stream has
// no end after its last start, and a process holds its journal. A run
// killed before it could write its end has neither.
func running(dir string) (bool, streamState, error) {
	st, err := readStreamState(dir)
	if err != nil || st.Ended {
		return false, st, err
	}
	return results.RunBusy(dir), st, nil
}
