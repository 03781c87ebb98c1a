package results

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-sqlite3" // the catalog is an embedded SQLite database
)

// The catalog's database: its schema, opening and creating it, bringing
// it up to date, rebuilding it, and its rows.

// catalogVersion is the schema version (PRAGMA user_version). An older
// catalog is migrated in place (catalog_migrate.go); a newer one, or a
// database of no known version, is rebuilt.
const catalogVersion = 2

const catalogSchema = `
CREATE TABLE IF NOT EXISTS runs (
	path            TEXT PRIMARY KEY, -- run directory, relative to the catalog's, slash-separated
	experiment      TEXT NOT NULL,
	engine          TEXT NOT NULL,
	engine_version  TEXT NOT NULL,
	started         INTEGER NOT NULL, -- Unix nanoseconds; 0 when not known
	finished        INTEGER,          -- Unix nanoseconds; NULL when the run did not finish
	has_results     INTEGER NOT NULL, -- results.json is there
	complete        INTEGER NOT NULL,
	error           TEXT NOT NULL,
	dbgauge_version TEXT NOT NULL,
	command         TEXT NOT NULL,    -- the command line as a JSON array
	headline_label  TEXT NOT NULL,
	headline_value  REAL,
	headline        TEXT NOT NULL,
	stamp           INTEGER NOT NULL, -- fingerprint of results.json and manifest.json: presence, size, modification time
	tags            TEXT NOT NULL DEFAULT '[]' -- the manifest's tags, sorted, as a JSON array (version 2)
);
CREATE INDEX IF NOT EXISTS runs_started ON runs (started);
`

// unreadable tells a catalog that must be rebuilt (not a database, damaged,
// another schema) from a passing trouble such as a lock held too long.
func unreadable(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB
	}
	return errors.Is(err, errUnreadable)
}

// openCatalog opens root's catalog, creating it (and its schema) when
// missing and migrating an older one. A catalog of a newer schema
// version, or a database that is not a catalog, is errUnreadable; a file
// that is not a database gives SQLite's own error (see unreadable).
func openCatalog(root string) (*sql.DB, error) {
	path := filepath.Join(root, CatalogFile)
	db, err := openDB(path)
	if err != nil {
		return nil, err
	}
	if err := ensureSchema(db, root); err != nil {
		db.Close()
		return nil, fmt.Errorf("catalog %s: %w", path, err)
	}
	return db, nil
}

// openDB opens a SQLite file with a busy timeout (a second process
// registering at the same moment waits instead of failing) and
// transactions that take the write lock at BEGIN (two writers never
// deadlock upgrading read locks).
func openDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", path+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// ensureSchema creates the schema in an empty database, migrates an
// older one (its runs under root) and checks the version of any other.
// The check and the creation or migration share one write transaction,
// so two processes opening the catalog at once do not both create or
// migrate it, nor take the other's fresh schema for a foreign one.
func ensureSchema(db *sql.DB, root string) error {
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version == catalogVersion {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var objects int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if err := tx.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&objects); err != nil {
		return err
	}
	switch {
	case version == catalogVersion:
		return nil // created or migrated meanwhile by another process
	case version == 0 && objects > 0:
		return fmt.Errorf("%w: a database that is not a catalog of runs", errUnreadable)
	case version == 0:
		if _, err := tx.Exec(catalogSchema); err != nil {
			return err
		}
	case version < catalogVersion:
		if err := migrate(tx, root, version); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: schema version %d, this dbgauge writes %d", errUnreadable, version, catalogVersion)
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", catalogVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// refresh brings the catalog up to date with the run directories under
// root, in one transaction, and returns its entries newest first.
func refresh(db *sql.DB, root string) ([]CatalogEntry, error) {
	var check string
	if err := db.QueryRow("PRAGMA quick_check").Scan(&check); err != nil {
		return nil, err
	}
	if check != "ok" {
		return nil, fmt.Errorf("%w: quick_check: %s", errUnreadable, check)
	}
	dirs, err := scanRuns(root)
	if err != nil {
		return nil, err
	}
	// What changed is read before the write transaction, so that decoding
	// large results.json files never holds the database's write lock.
	known := map[string]int64{}
	rows, err := db.Query("SELECT path, stamp FROM runs")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p string
		var stamp int64
		if err := rows.Scan(&p, &stamp); err != nil {
			rows.Close()
			return nil, err
		}
		known[p] = stamp
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var changed []CatalogEntry
	for _, rel := range dirs {
		stamp, ok := known[rel]
		delete(known, rel)
		if ok && stamp == runStamp(filepath.Join(root, filepath.FromSlash(rel))) {
			continue
		}
		changed = append(changed, readEntry(root, rel))
	}
	tx, err := db.Begin()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, e := range changed {
		if err := upsert(tx, e); err != nil {
			return nil, err
		}
	}
	for gone := range known {
		if _, err := tx.Exec("DELETE FROM runs WHERE path = ?", gone); err != nil {
			return nil, err
		}
	}
	entries, err := selectEntries(tx)
	if err != nil {
		return nil, err
	}
	return entries, tx.Commit()
}

// rebuild writes a new catalog from the run directories under root and
// puts it in place of the old one with a rename, so that a reader never
// sees half a catalog.
func rebuild(root string) ([]CatalogEntry, error) {
	dirs, err := scanRuns(root)
	if err != nil {
		return nil, fmt.Errorf("rebuild catalog: %w", err)
	}
	f, err := os.CreateTemp(root, "."+CatalogFile+".new-*")
	if err != nil {
		return nil, fmt.Errorf("rebuild catalog: %w", err)
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp) // after a successful rename, there is nothing to remove
	entries, err := fill(tmp, root, dirs)
	if err != nil {
		return nil, fmt.Errorf("rebuild catalog: %w", err)
	}
	path := filepath.Join(root, CatalogFile)
	// The old database's journal would be taken for the new one's and
	// "rolled back" into it.
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("rebuild catalog: %w", err)
	}
	return entries, nil
}

// fill creates the catalog database at path with one row per run
// directory.
func fill(path, root string, dirs []string) ([]CatalogEntry, error) {
	db, err := openDB(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := ensureSchema(db, root); err != nil {
		return nil, err
	}
	tx, err := db.Begin()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for _, rel := range dirs {
		if err := upsert(tx, readEntry(root, rel)); err != nil {
			return nil, err
		}
	}
	entries, err := selectEntries(tx)
	if err != nil {
		return nil, err
	}
	return entries, tx.Commit()
}

func upsert(tx *sql.Tx, e CatalogEntry) error {
	cmd, err := json.Marshal(e.Command)
	if err != nil {
		return err
	}
	tags, err := json.Marshal(append([]string{}, NormalizeTags(e.Tags)...)) // "[]" for none, as the column's default
	if err != nil {
		return err
	}
	var finished, value any
	if e.Finished != nil {
		finished = e.Finished.UnixNano()
	}
	if e.Headline.Value != nil {
		value = *e.Headline.Value
	}
	_, err = tx.Exec(`INSERT OR REPLACE INTO runs (path, experiment, engine, engine_version, started, finished, has_results, complete, error,
		dbgauge_version, command, headline_label, headline_value, headline, stamp, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Path, e.Experiment, e.Engine, e.EngineVersion, unixNano(e.Started), finished, e.HasResults, e.Complete, e.Error,
		e.Dbgauge, string(cmd), e.Headline.Label, value, e.Headline.Text, e.stamp, string(tags))
	return err
}

func selectEntries(tx *sql.Tx) ([]CatalogEntry, error) {
	rows, err := tx.Query(`SELECT path, experiment, engine, engine_version, started, finished, has_results, complete, error,
		dbgauge_version, command, headline_label, headline_value, headline, stamp, tags FROM runs ORDER BY started DESC, path`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CatalogEntry
	for rows.Next() {
		var e CatalogEntry
		var started int64
		var finished sql.NullInt64
		var value sql.NullFloat64
		var cmd, tags string
		if err := rows.Scan(&e.Path, &e.Experiment, &e.Engine, &e.EngineVersion, &started, &finished, &e.HasResults, &e.Complete, &e.Error,
			&e.Dbgauge, &cmd, &e.Headline.Label, &value, &e.Headline.Text, &e.stamp, &tags); err != nil {
			return nil, err
		}
		if started != 0 {
			e.Started = time.Unix(0, started).UTC()
		}
		if finished.Valid {
			t := time.Unix(0, finished.Int64).UTC()
			e.Finished = &t
		}
		if value.Valid {
			v := value.Float64
			e.Headline.Value = &v
		}
		if err := json.Unmarshal([]byte(cmd), &e.Command); err != nil {
			return nil, fmt.Errorf("%w: command of %s: %v", errUnreadable, e.Path, err)
		}
		if err := json.Unmarshal([]byte(tags), &e.Tags); err != nil {
			return nil, fmt.Errorf("%w: tags of %s: %v", errUnreadable, e.Path, err)
		}
		e.Tags = NormalizeTags(e.Tags)
		out = append(out, e)
	}
	return out, rows.Err()
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
