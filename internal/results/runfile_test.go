package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunFileOf: which output targets are a run's own files, on a run
// directory, a quickstart directory (DIR/<engine>/run/ beside the
// engine's database) and a directory that holds a manifest.json of
// another program.
func TestRunFileOf(t *testing.T) {
	tmp := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(tmp, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	man := `{"experiment": "wisconsin"}`
	write("run/manifest.json", man)
	write("run/report.html", "<html>")
	write("qs/report.html", "<html>")
	write("qs/side_by_side.txt", "")
	write("qs/sqlite/sqlite.db", "")
	write("qs/sqlite/notes.txt", "")
	write("qs/sqlite/run/manifest.json", man)
	write("other/manifest.json", `{"name": "an extension"}`)
	write("other/page.html", "")
	write("journalled/journal.jsonl", "")
	for _, c := range []struct {
		path string
		want string // the run directory, "" for none
	}{
		{"run/manifest.json", "run"},
		{"run/results.json", "run"}, // not written yet, but its name
		{"run/journal.jsonl", "run"},
		{"run/report.html", "run"},
		{"run/new.html", ""},
		{"run", ""}, // the directory itself: no file of it
		{"qs/report.html", "qs"},
		{"qs/side_by_side.txt", "qs"},
		{"qs/new.html", ""},
		{"qs/sqlite/sqlite.db", "qs/sqlite"},
		{"qs/sqlite/notes.txt", ""},
		{"qs/sqlite/run/manifest.json", "qs/sqlite/run"},
		{"other/manifest.json", ""},
		{"other/page.html", ""},
		{"journalled/results.json", "journalled"},
		{"page.html", ""},
	} {
		dir, ok := RunFileOf(filepath.Join(tmp, c.path))
		want := ""
		if c.want != "" {
			want = filepath.Join(tmp, c.want)
		}
		if ok != (c.want != "") || dir != want {
			t.Errorf("RunFileOf(%s) = %q, %v; want %q", c.path, dir, ok, want)
		}
	}
}
