package results

import "path/filepath"

// RunBusy tells whether a process is writing the run in dir now: its
// journal is locked (see OpenJournal). A finished or killed run's journal
// is not, since the lock goes with the writer's open file.
func RunBusy(dir string) bool {
	return journalBusy(filepath.Join(dir, JournalFile))
}
