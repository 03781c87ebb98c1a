package live

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Writer appends events to a run's live.jsonl. Safe for concurrent use; a
// nil Writer writes nothing. A write that fails stops the stream (the
// first error is kept): the stream is for watching, and a run never fails
// for it. What a failed write left of its line (a full disk takes the
// part that fits) is cut off again, so that the stream stays whole lines.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	size int64 // bytes in the file: where a torn line is cut back to
	err  error
}

// Create opens path for appending (a resumed run continues its stream).
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{f: f, size: st.Size()}, nil
}

// Emit appends e, stamping its time when it has none.
func (w *Writer) Emit(e Event) {
	if w == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	b, err := json.Marshal(e)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil || w.err != nil {
		return
	}
	if err != nil {
		w.err = err
		return
	}
	n, err := w.f.Write(append(b, '\n'))
	if err != nil {
		if n > 0 {
			w.f.Truncate(w.size)
		}
		w.err = err
		return
	}
	w.size += int64(n)
}

// Close closes the stream and returns its first error.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return w.err
	}
	err := w.f.Close()
	w.f = nil
	if w.err == nil {
		w.err = err
	}
	return w.err
}
