package results

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestJournalKeepsItsFirstFailure: on a device that is always full, every
// append fails with the first error, none panics, and Err names the file,
// the failure and the entries not written by kind, in the order each kind
// was first lost.
func TestJournalKeepsItsFirstFailure(t *testing.T) {
	j, err := OpenJournal("/dev/full")
	if err != nil {
		t.Fatalf("open /dev/full (Linux's always full device): %v", err)
	}
	defer j.Close()
	if err := j.Err(); err != nil {
		t.Fatalf("a fresh journal reports %v", err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := j.Append(WisconsinExecution{Rep: i}); !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("append: %v, want ENOSPC", err)
			}
		}()
	}
	wg.Wait()
	j.Append(JournalWarning("w"))
	j.Append(QueryResult{Query: 1})
	j.Append(JournalWarning("w"))
	err = j.Err()
	var je *JournalError
	if !errors.As(err, &je) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Err() = %v, want a *JournalError of ENOSPC", err)
	}
	want := "journal /dev/full: write: no space left on device; 11 entries not written (8 execution, 2 warning, 1 query)"
	if err.Error() != want {
		t.Errorf("Err() = %q, want %q", err, want)
	}
	// An empty journal is removed on Close, but a device never is.
	j.Close()
	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("after Close /dev/full is %v (%v), want still the character device", st, err)
	}
}

// TestJournalGoesOnAfterAnEntryItCannotEncode: an entry JSON cannot
// encode (NaN) is counted as not written; the journal stays whole and
// takes the next entries.
func TestJournalGoesOnAfterAnEntryItCannotEncode(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(SizeSweepRetrieve{MS: math.NaN()}); err == nil {
		t.Error("a NaN was encoded")
	}
	if err := j.Append(SizeSweepRetrieve{Rep: 1}); err != nil {
		t.Errorf("the next entry: %v", err)
	}
	j.Close()
	if err := j.Append(JournalWarning("late")); err == nil {
		t.Error("an append after Close succeeded")
	}
	entries, err := ReadJournal(path)
	if err != nil || len(entries) != 1 || entries[0].Type != "retrieve" {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	if msg := j.Err().Error(); !strings.Contains(msg, "2 entries not written (1 retrieve, 1 warning)") || !strings.Contains(msg, "NaN") {
		t.Errorf("Err() = %q", msg)
	}
	var nilJournal *Journal
	if nilJournal.Append(JournalWarning("x")) == nil {
		t.Error("a nil journal took an entry")
	}
	if b, _ := os.ReadFile(path); len(b) == 0 || b[len(b)-1] != '\n' {
		t.Errorf("journal %q", b)
	}
}

// TestEmptyJournalRemovedOnClose: a run that fails before its first entry
// (a full disk during the load) leaves no empty journal behind; a journal
// with entries stays.
func TestEmptyJournalRemovedOnClose(t *testing.T) {
	dir := t.TempDir()
	empty, full := filepath.Join(dir, "empty.jsonl"), filepath.Join(dir, "full.jsonl")
	j, err := OpenJournal(empty)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if _, err := os.Stat(empty); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty journal still there after Close: %v", err)
	}
	j, err = OpenJournal(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(UnitDone{Unit: "scale 1"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if _, err := os.Stat(full); err != nil {
		t.Errorf("a journal with entries removed: %v", err)
	}
}

// TestJournalCutsATornLineOnOpen: a journal whose last line was torn (a
// crash in the middle of a write) is cut back to its whole lines when it
// is opened again (by resume), so that the next entry starts a line of
// its own: appended to the torn line, it was lost with it.
func TestJournalCutsATornLineOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(UnitDone{Unit: "scale 1"})
	j.Append(UnitDone{Unit: "scale 2"})
	j.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"unit","time":"2026-`)
	f.Close()
	if j, err = OpenJournal(path); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(UnitDone{Unit: "scale 3"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	entries, err := ReadJournal(path)
	var units []string
	for _, e := range entries {
		units = append(units, string(e.Data))
	}
	if want := `{"unit":"scale 1"} {"unit":"scale 2"} {"unit":"scale 3"}`; err != nil || strings.Join(units, " ") != want {
		t.Errorf("entries %s (%v), want %s", units, err, want)
	}
}

// TestJournalHoldsSpaceAhead: an open journal holds disk space beyond its
// last entry (allocated, not in its size), and gives it back on Close.
func TestJournalHoldsSpaceAhead(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(UnitDone{Unit: "scale 1"})
	if j.noAlloc {
		t.Skipf("the file system of %s cannot preallocate", path)
	}
	allocated := func() (size, blocks int64) {
		var st syscall.Stat_t
		if err := syscall.Stat(path, &st); err != nil {
			t.Fatal(err)
		}
		return st.Size, st.Blocks * 512
	}
	// An entry is a few dozen bytes: one block of 4 KiB holds it.
	size, open := allocated()
	if open < size+4096 {
		t.Errorf("open journal: %d bytes, %d held on the disk; want space held beyond its end", size, open)
	}
	j.Close()
	if size, held := allocated(); held >= open || held > 4096 || size == 0 {
		t.Errorf("closed journal: %d bytes, %d held on the disk (%d while open); want the space ahead given back", size, held, open)
	}
}
