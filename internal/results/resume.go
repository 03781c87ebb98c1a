package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// A run that stopped (a fault, Ctrl-C, kill -9, a power loss) keeps its
// journal; `dbgauge resume DIR` continues it from its last complete unit.
// The journal says which units completed (UnitDone entries, appended once
// a unit's measurements are all journalled), when the run was resumed
// before (Resumed entries) and where it paused (Pause entries).

// UnitDone ("unit") says that one unit of a run completed: every
// measurement of it is in the journal before this entry. Unit is the
// experiment's name for it ("scale 5", "cardinality 20000").
type UnitDone struct {
	Unit string `json:"unit"`
}

// ResumedEntry ("resumed") is one continuation of a stopped run.
type ResumedEntry struct {
	At time.Time `json:"at"`
}

// Pause is one wait of --pause-on-error: a unit failed with a fault, and
// the run waited and tried it again instead of ending.
type Pause struct {
	Unit string `json:"unit"`
	// Fault is the first failure, in words; Attempts counts the tries
	// that failed while paused (the first included).
	Fault    string    `json:"fault"`
	Attempts int       `json:"failed_attempts"`
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	// Outcome is how the pause ended: PauseResolved (the unit then
	// succeeded), PauseLimit (--pause-limit reached: the run ended with
	// the fault) or PauseInterrupted (Ctrl-C or SIGTERM while waiting).
	Outcome string `json:"outcome"`
}

// How a pause ended.
const (
	PauseResolved    = "resolved"
	PauseLimit       = "limit reached"
	PauseInterrupted = "interrupted"
)

func (UnitDone) JournalKind() string     { return "unit" }
func (ResumedEntry) JournalKind() string { return "resumed" }
func (Pause) JournalKind() string        { return "pause" }

// Progress is what a stopped run's journal says about how far it got.
type Progress struct {
	Dir      string
	Manifest *Manifest
	// Done are the completed units; Resumed the earlier continuations;
	// Pauses the earlier pauses, in journal order.
	Done    map[string]bool
	Resumed []time.Time
	Pauses  []Pause
	// Warnings are those journalled up to the last completed unit: later
	// ones belong to the unit that is done again.
	Warnings []string
	// Entries is the whole journal, for the experiment to take back the
	// measurements of its completed units.
	Entries []RawEntry
}

// ErrNotResumable is the failure of ReadProgress for a directory that is
// no run, a run that completed, or an experiment that cannot be resumed:
// bad input.
var ErrNotResumable = errors.New("cannot be resumed")

// ReadProgress reads a stopped run for `dbgauge resume`. It refuses a
// directory without a manifest (not a run), a run whose results.json says
// it completed, and a run of an experiment without units.
func ReadProgress(dir string) (*Progress, error) {
	mb, err := readManifestBytes(dir)
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("%s %w: its %s is larger than %d KiB, which no manifest dbgauge writes is: give a run directory that dbgauge wrote", dir, ErrNotResumable, ManifestFile, MaxManifestBytes>>10)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %w: no readable %s (%v): give a run directory that dbgauge wrote", dir, ErrNotResumable, ManifestFile, errors.Unwrap(err))
	}
	var man Manifest
	if err := json.Unmarshal(mb, &man); err != nil || man.Experiment == "" {
		return nil, fmt.Errorf("%s %w: %s names no experiment: give a run directory that dbgauge wrote", dir, ErrNotResumable, ManifestFile)
	}
	k, err := KindOf(man.Experiment)
	if err != nil {
		return nil, fmt.Errorf("%s %w: %v", dir, ErrNotResumable, err)
	}
	if k.Units == "" {
		return nil, fmt.Errorf("%s %w: %s runs have no units to continue from; run it again", dir, ErrNotResumable, man.Experiment)
	}
	if rb, err := os.ReadFile(filepath.Join(dir, ResultsFile)); err == nil {
		var h Header
		if json.Unmarshal(rb, &h) == nil && h.Complete {
			return nil, fmt.Errorf("%s %w: the run completed; there is nothing to continue", dir, ErrNotResumable)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if RunBusy(dir) {
		return nil, fmt.Errorf("%s %w: %v; wait for it to end, or stop it (Ctrl-C) first", dir, ErrNotResumable, ErrRunBusy)
	}
	entries, err := ReadJournal(filepath.Join(dir, JournalFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: read the journal: %w", dir, err)
	}
	p := &Progress{Dir: dir, Manifest: &man, Done: map[string]bool{}, Entries: entries}
	var pending []string // warnings since the last completed unit
	for _, e := range entries {
		switch e.Type {
		case UnitDone{}.JournalKind():
			var u UnitDone
			if json.Unmarshal(e.Data, &u) == nil && u.Unit != "" {
				p.Done[u.Unit] = true
				p.Warnings, pending = append(p.Warnings, pending...), nil
			}
		case ResumedEntry{}.JournalKind():
			var r ResumedEntry
			if json.Unmarshal(e.Data, &r) == nil {
				p.Resumed = append(p.Resumed, r.At)
			}
		case Pause{}.JournalKind():
			var x Pause
			if json.Unmarshal(e.Data, &x) == nil {
				p.Pauses = append(p.Pauses, x)
			}
		case JournalWarning("").JournalKind():
			var w string
			if json.Unmarshal(e.Data, &w) == nil {
				pending = append(pending, w)
			}
		}
	}
	return p, nil
}

// Decode calls fn for every journal entry of kind, decoded into a new T,
// with its index in Entries; entries that do not decode are skipped (a
// torn line was already dropped by ReadJournal).
func Decode[T any](p *Progress, kind string, fn func(i int, v T)) {
	for i, e := range p.Entries {
		if e.Type != kind {
			continue
		}
		var v T
		if json.Unmarshal(e.Data, &v) == nil {
			fn(i, v)
		}
	}
}

// DedupeWarnings drops repeated warnings, keeping the first of each: a
// resumed run says again what its first part said (a defect of the
// engine) and both parts' warnings are kept.
func (h *Header) DedupeWarnings() {
	seen := map[string]bool{}
	out := h.Warnings[:0]
	for _, w := range h.Warnings {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	h.Warnings = out
}

// UnitEntries decodes the entries of kind journalled for a completed unit:
// those after the completion of the unit before it and before its own
// UnitDone entry, in journal order (so the tries of it that failed, in
// this part or in one before a resume, come first and the one that
// completed last). None when unit did not complete.
func UnitEntries[T any](p *Progress, unit, kind string) []T {
	from := 0
	for i, e := range p.Entries {
		if e.Type != (UnitDone{}).JournalKind() {
			continue
		}
		var u UnitDone
		if json.Unmarshal(e.Data, &u) != nil {
			continue
		}
		if u.Unit != unit {
			from = i + 1
			continue
		}
		var out []T
		for _, x := range p.Entries[from:i] {
			var v T
			if x.Type == kind && json.Unmarshal(x.Data, &v) == nil {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}
