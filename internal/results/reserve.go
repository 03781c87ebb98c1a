package results

import (
	"errors"
	"os"
	"syscall"
)

// reserveFile holds back disk space for the run's last words: a disk that
// fills during a run (the journal, raw times, another program) would
// otherwise leave no room for results.json with the error that says so.
// It is removed when a write finds the disk full, and when the run closes.
const reserveFile = ".dbgauge-reserve"

// reserveBytes is enough for the results.json of any run dbgauge writes
// (the largest, a many-scale sweep's, is a few hundred kB) and the tables.
const reserveBytes = 2 << 20

// reserve writes the reserve file; a disk too full for it already gets
// none, and the run goes on (its outputs may then not be written, which
// their writers say).
func (r *Run) reserve() {
	path := r.Path(reserveFile)
	if err := os.WriteFile(path, make([]byte, reserveBytes), 0o600); err != nil {
		os.Remove(path)
		return
	}
	r.reserved = true
}

// release gives the reserved space back: it tells whether there was any.
func (r *Run) release() bool {
	if !r.reserved {
		return false
	}
	r.reserved = false
	return os.Remove(r.Path(reserveFile)) == nil
}

// diskFull tells whether err is the disk (or a quota) being full.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
