package results

import (
	"errors"
	"fmt"
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

// DiskFull says whether the file system of the run directory has no room
// left (for an unprivileged writer): a disk that filled during the run is a
// fault even when the journal lost nothing (its last page had room), for
// what comes next (the tables, the page) may not be written. The reserve
// is released first, so that the run's last words can be written in it.
func (r *Run) DiskFull() error {
	if r.filled != nil {
		return fmt.Errorf("the disk filled during the run (%w); dbgauge wrote the rest in the space it had reserved", r.filled)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(r.Dir, &st); err != nil || st.Bavail > 0 {
		return nil
	}
	r.release()
	return fmt.Errorf("%s: %w: the disk filled during the run", r.Dir, syscall.ENOSPC)
}
