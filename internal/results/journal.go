package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// JournalFile is the name of the journal in a run directory.
const JournalFile = "journal.jsonl"

// Journal appends one JSON object per line, flushed to the kernel at every
// entry, so a crash or Ctrl-C loses at most the operation in flight.
//
// A write that fails (a full disk) is remembered: the first failure is
// kept, nothing more is written after it (a half-written line is cut off
// again, so the file stays whole lines), and every entry not written is
// counted by kind. Appends never panic and, once the journal has failed,
// cost a lock and a counter. Err reports the loss at the end of the run.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	size int64 // bytes in the file: where a torn line is cut back to
	// regular says the journal is a file of its own, which Close may
	// remove when it stayed empty (never a device such as /dev/full).
	regular bool
	// err is the first failure, kept for the report; broken says a write
	// failed, after which nothing more is written.
	err    error
	broken bool
	// lost counts the entries not written, by kind, in the order each kind
	// was first lost.
	lost []KindCount
	// alloc is where the disk space held for the journal ends (beyond
	// size: grow, journal_space.go); retryAt the size at which grow
	// tries to hold more; noAlloc says the file system cannot.
	alloc, retryAt int64
	noAlloc        bool
}

// KindCount is a number of journal entries of one kind.
type KindCount struct {
	Kind  string
	Count int
}

// Entry is one journal line: a type, the time it was written and a payload.
type Entry struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Data any       `json:"data"`
}

// JournalEntry is the payload of one journal line; JournalKind is the
// line's "type" (journal_entries.go has one type per kind).
type JournalEntry interface{ JournalKind() string }

// OpenJournal opens (appending) or creates a journal file, cuts a torn
// last line off it and holds disk space for its next entries (grow).
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	if busy(f, syscall.LOCK_EX) {
		f.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, ErrRunBusy)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open journal: %w", err)
	}
	j := &Journal{f: f, path: path, size: st.Size(), regular: st.Mode().IsRegular()}
	if j.regular {
		if j.size, err = wholeLines(f, j.size); err != nil {
			f.Close()
			return nil, fmt.Errorf("open journal: cut its torn last line: %w", err)
		}
		j.grow(0)
	}
	return j, nil
}

// ErrRunBusy says that another process has the run's journal open: the
// run is still going (perhaps paused by --pause-on-error).
var ErrRunBusy = errors.New("another dbgauge process is writing this run")

// busy takes a lock (how: syscall.LOCK_EX or LOCK_SH) on f without
// waiting, and tells whether another open journal holds it. The lock of
// a writing journal lasts until its file is closed (a killed process's
// too), so that a run is never continued while it still runs. A file
// system without locks locks nothing.
func busy(f *os.File, how int) bool {
	return errors.Is(syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB), syscall.EWOULDBLOCK)
}

// journalBusy tells whether a process is writing the journal at path.
func journalBusy(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return busy(f, syscall.LOCK_SH)
}

// errJournalClosed is the failure of an entry appended after Close.
var errJournalClosed = errors.New("the journal was already closed")

// Append writes one entry. Safe for concurrent use. It returns the
// journal's first failure when the entry was not written.
func (j *Journal) Append(e JournalEntry) error {
	if j == nil || e == nil {
		return errors.New("append to the journal: no journal or no entry")
	}
	kind := e.JournalKind()
	j.mu.Lock()
	broken := j.broken
	j.mu.Unlock()
	var b []byte
	var err error
	if !broken {
		// Encoded outside the lock: concurrent appenders only queue for
		// the write.
		b, err = json.Marshal(Entry{Type: kind, Time: time.Now().UTC(), Data: e})
		if err != nil {
			err = fmt.Errorf("encode a %s entry: %w", kind, err)
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case err != nil:
		// This entry cannot be encoded; the journal itself is whole and
		// later entries are still written.
	case j.broken:
		err = j.err
	case j.f == nil:
		err = errJournalClosed
	default:
		j.grow(int64(len(b) + 1))
		var n int
		n, err = j.f.Write(append(b, '\n'))
		if err == nil {
			j.size += int64(n)
			return nil
		}
		j.broken = true
		// Cut half a line off again, so that the file stays whole
		// lines, and give the space back.
		if j.regular {
			j.f.Truncate(j.size)
			j.alloc = j.size
		}
	}
	if j.err == nil {
		j.err = err
	}
	j.count(kind)
	return err
}

// count records one entry of kind as not written; j.mu is held.
func (j *Journal) count(kind string) {
	for i := range j.lost {
		if j.lost[i].Kind == kind {
			j.lost[i].Count++
			return
		}
	}
	j.lost = append(j.lost, KindCount{Kind: kind, Count: 1})
}

// Sync flushes the journal to the disk; a failure is remembered as a
// write failure is (what was written may not be on the disk).
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil || j.broken {
		return j.err
	}
	if err := j.f.Sync(); err != nil {
		if j.err == nil {
			j.err = err
		}
		return err
	}
	return nil
}

// Err returns the journal's loss (a *JournalError) or nil when every
// entry was written.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		return nil
	}
	return &JournalError{Path: j.path, Err: j.err, Lost: append([]KindCount(nil), j.lost...)}
}

// Close syncs and closes the journal; closing twice is harmless. A
// journal that holds nothing (a run that failed before its first entry)
// is removed rather than left as an empty file: resume reads a missing
// journal as one without entries.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	if j.size == 0 && j.regular {
		os.Remove(j.path)
	}
	j.giveBack()
	j.f.Sync()
	err := j.f.Close()
	j.f = nil
	return err
}

// JournalError says what a run's journal lost: the first failure and the
// entries not written, by kind. Every entry before the failure is in the
// file, whole.
type JournalError struct {
	Path string
	Err  error
	Lost []KindCount
}

func (e *JournalError) Error() string {
	cause := e.Err.Error()
	var pe *os.PathError
	if errors.As(e.Err, &pe) && pe.Path == e.Path {
		cause = pe.Op + ": " + pe.Err.Error() // the path is said once
	}
	var b strings.Builder
	fmt.Fprintf(&b, "journal %s: %s; ", e.Path, cause)
	total := 0
	for _, l := range e.Lost {
		total += l.Count
	}
	if total == 0 {
		b.WriteString("no entry was refused, but those written may not be on the disk")
		return b.String()
	}
	parts := make([]string, len(e.Lost))
	for i, l := range e.Lost {
		parts[i] = fmt.Sprintf("%d %s", l.Count, l.Kind)
	}
	fmt.Fprintf(&b, "%d %s not written (%s)", total, plural(total, "entry", "entries"), strings.Join(parts, ", "))
	return b.String()
}

func (e *JournalError) Unwrap() error { return e.Err }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
