package dbms

// DefaultEngine is the engine experiments run on when --db is not given:
// an embedded database file in the run directory.
const DefaultEngine = "sqlite"

// DefaultURL is the URL of the default engine's database file at path.
func DefaultURL(path string) string { return DefaultEngine + ":" + path }

// DefaultSharedURL is DefaultURL for many sessions writing at once: the
// write-ahead log, and a busy timeout of 10 s instead of failing at once
// on a locked database.
func DefaultSharedURL(path string) string {
	return DefaultURL(path) + "?_journal_mode=WAL&_busy_timeout=10000"
}
