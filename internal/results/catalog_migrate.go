package results

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
)

// migrations bring a catalog of an older schema version up to date in
// place: migrations[v] takes version v to v+1, inside the transaction
// that checked the version. A migration fills what is new from the small
// files it comes from, never by decoding every results.json again (what
// a rebuild costs), and leaves each row's stamp as it is: the files did
// not change.
var migrations = map[int]func(tx *sql.Tx, root string) error{
	1: addTags,
}

// migrate runs the migrations from version to catalogVersion.
func migrate(tx *sql.Tx, root string, version int) error {
	for v := version; v < catalogVersion; v++ {
		m, ok := migrations[v]
		if !ok {
			return fmt.Errorf("%w: schema version %d has no migration", errUnreadable, v)
		}
		if err := m(tx, root); err != nil {
			return fmt.Errorf("migrate the catalog from version %d: %w", v, err)
		}
	}
	return nil
}

// addTags (version 1 to 2) adds the tags column and reads each run's tags
// from its manifest. A version 1 catalog may list runs that carry tags: a
// dbgauge without tags rebuilds a newer catalog as version 1.
func addTags(tx *sql.Tx, root string) error {
	if _, err := tx.Exec(`ALTER TABLE runs ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'`); err != nil {
		return err
	}
	rows, err := tx.Query("SELECT path FROM runs")
	if err != nil {
		return err
	}
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return err
		}
		paths = append(paths, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range paths {
		tags := manifestTags(filepath.Join(root, filepath.FromSlash(p)))
		if tags == nil {
			continue
		}
		b, err := json.Marshal(tags)
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE runs SET tags = ? WHERE path = ?", string(b), p); err != nil {
			return err
		}
	}
	return nil
}

// manifestTags are the tags of the run in dir (nil when its manifest is
// missing or unreadable: its row then says so already, or is re-read when
// the manifest changes).
func manifestTags(dir string) []string {
	b, err := readManifestBytes(dir)
	if err != nil {
		return nil
	}
	var m struct {
		Tags []string `json:"tags"`
	}
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return NormalizeTags(m.Tags)
}
