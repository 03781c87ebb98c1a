package live

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// ControlFile is the name of the requests file in a run directory.
const ControlFile = "control.jsonl"

// Request is one line of control.jsonl: what a viewer asks of a running
// run. Exactly one of Mark, Stop and Abort is set.
type Request struct {
	Time time.Time `json:"time"`
	// Mark is an event to journal and to show on every chart.
	Mark string `json:"mark,omitempty"`
	// Stop ends the run at the end of the cycle (or unit) in flight:
	// nothing measured is discarded.
	Stop bool `json:"stop,omitempty"`
	// Abort ends the run now, as Ctrl-C does: the cycle in flight is not
	// counted, every finished one is kept.
	Abort bool `json:"abort,omitempty"`
}

// Ask appends r to the requests of the run in dir. One write of one line
// with O_APPEND, so that concurrent viewers never interleave.
func Ask(dir string, r Request) error {
	n := 0
	for _, set := range []bool{r.Mark != "", r.Stop, r.Abort} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New("live: a request is one of a mark, stop or abort")
	}
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, ControlFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadRequests returns the whole requests in path from offset on, and the
// offset after the last whole line (a line still being written is read
// next time). A missing file has none.
func ReadRequests(path string, offset int64) ([]Request, int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, offset, nil
	}
	if err != nil {
		return nil, offset, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, offset, err
	}
	b, err := io.ReadAll(bufio.NewReader(f))
	if err != nil {
		return nil, offset, err
	}
	end := bytes.LastIndexByte(b, '\n') + 1
	var out []Request
	for _, line := range bytes.Split(b[:end], []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Request
		if err := json.Unmarshal(line, &r); err != nil {
			return out, offset + int64(end), fmt.Errorf("%s: a request that is not JSON: %w", path, err)
		}
		out = append(out, r)
	}
	return out, offset + int64(end), nil
}
