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
// for it.
type Writer struct {
	mu  sync.Mutex
	f   *os.File
	err error
}

// Create opens path for appending (a resumed run continues its stream).
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Writer{f: f}, nil
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
	if err == nil {
		_, err = w.f.Write(append(b, '\n'))
	}
	w.err = err
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
