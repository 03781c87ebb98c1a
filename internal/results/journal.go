package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// JournalFile is the name of the journal in a run directory.
const JournalFile = "journal.jsonl"

// Journal appends one JSON object per line, flushed to the kernel at every
// entry, so a crash or Ctrl-C loses at most the operation in flight.
type Journal struct {
	mu sync.Mutex
	f  *os.File
}

// Entry is one journal line: a type, the time it was written and a payload.
type Entry struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Data any       `json:"data"`
}

// OpenJournal opens (appending) or creates a journal file.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	return &Journal{f: f}, nil
}

// Append writes one entry. Safe for concurrent use.
func (j *Journal) Append(typ string, data any) error {
	b, err := json.Marshal(Entry{Type: typ, Time: time.Now().UTC(), Data: data})
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return os.ErrClosed
	}
	_, err = j.f.Write(append(b, '\n'))
	return err
}

// Close syncs and closes the journal; closing twice is harmless.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	j.f.Sync()
	err := j.f.Close()
	j.f = nil
	return err
}

// ReadJournal returns the entries of a journal file, raw payloads kept as
// JSON for the caller to decode by type. A torn last line (crash) is ignored.
func ReadJournal(path string) ([]RawEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []RawEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e RawEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// RawEntry is an Entry whose payload is not decoded yet.
type RawEntry struct {
	Type string          `json:"type"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data"`
}
