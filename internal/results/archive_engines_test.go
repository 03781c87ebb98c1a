package results

import (
	"testing"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
)

// The archive leaves out the files the engines register as theirs
// (dbms.Adapter's FileSuffixes), and only those.
func TestArchiveLeavesOutEngineFiles(t *testing.T) {
	for _, name := range []string{"sqlite.db", "dsbench.db-wal", "x.db-shm", "x.db-journal", "s.duckdb", "s.duckdb.wal", "duckdb.db.wal", "w.fdb"} {
		if !isDatabaseFile(name) {
			t.Errorf("%s would be archived", name)
		}
	}
	for _, name := range []string{"results.json", "journal.jsonl", "report.html", "scale-1.hlog", "db"} {
		if isDatabaseFile(name) {
			t.Errorf("%s would be left out", name)
		}
	}
}
