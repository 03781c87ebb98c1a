package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// RunBusy tells whether a process is writing the run in dir now: its
// journal is locked (see OpenJournal). A finished or killed run's journal
// is not, since the lock goes with the writer's open file.
func RunBusy(dir string) bool {
	return journalBusy(filepath.Join(dir, JournalFile))
}

// CheckRunning says whether the run in dir is running now (RunBusy). The
// error names what dir is instead, and the fix: no run at all, or a run
// that ended (or was killed). Requests to a run (`dbgauge mark`,
// `dbgauge stop`) are refused so, since nobody would read them.
func CheckRunning(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		return fmt.Errorf("%s holds no run (no %s): give the directory of a running run", dir, ManifestFile)
	}
	if !RunBusy(dir) {
		return fmt.Errorf("%s is not running (no dbgauge process writes its journal): a run that ended takes no requests; `dbgauge resume %s` continues one that stopped", dir, dir)
	}
	return nil
}
