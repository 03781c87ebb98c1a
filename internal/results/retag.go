package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// ErrNoManifest says that a directory holds no run whose manifest can be
// changed: bad input.
var ErrNoManifest = errors.New("no readable " + ManifestFile)

// Retag adds and then removes tags of the finished or stopped run in dir
// and returns its tags afterwards. The manifest is rewritten atomically
// (only when the tags change), while the run's journal is locked as a
// writing run locks it: a run still being written (ErrRunBusy) is
// refused, and a `dbgauge resume` cannot start in the middle of the
// change and write the old tags back. Every tag must pass CheckTag.
func Retag(dir string, add, remove []string) (tags []string, changed bool, err error) {
	for _, t := range slices.Concat(add, remove) {
		if err := CheckTag(t); err != nil {
			return nil, false, err
		}
	}
	unlock, err := lockJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", dir, err)
	}
	defer unlock()
	b, err := readManifestBytes(dir)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w (%v)", dir, ErrNoManifest, errors.Unwrap(err))
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Experiment == "" {
		return nil, false, fmt.Errorf("%s: %w: it names no experiment", dir, ErrNoManifest)
	}
	tags = NormalizeTags(slices.DeleteFunc(slices.Concat(m.Tags, add), func(t string) bool { return slices.Contains(remove, t) }))
	if slices.Equal(tags, m.Tags) {
		return tags, false, nil
	}
	m.Tags = tags
	if err := (&Run{Dir: dir}).WriteJSON(ManifestFile, &m); err != nil {
		return nil, false, err
	}
	return tags, true, nil
}

// lockJournal takes the lock a writing journal holds (OpenJournal), for
// as long as a change to a stopped run lasts, without creating a journal
// where there is none (a run that has none is not being written).
func lockJournal(path string) (unlock func(), err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if busy(f, syscall.LOCK_EX) {
		f.Close()
		return nil, ErrRunBusy
	}
	return func() { f.Close() }, nil // closing releases the lock
}
