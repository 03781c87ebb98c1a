package cli

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputTargetsInARunRefused: report --html, compare --html and
// generate --output naming a file of a run (its manifest, results, journal,
// live stream, interval log and load samples, its database, its page) are
// bad input: exit 2, one line naming the flag and a fix, and the run
// directory unchanged, byte for byte (they wrote HTML over results.json
// and exited 0). The names a run keeps its data under are refused even
// before the run wrote them, and so is a run's file reached through a
// symbolic link. report's own page (DIR/report.html) and a new file beside
// the run stay allowed.
func TestOutputTargetsInARunRefused(t *testing.T) {
	tmp := t.TempDir()
	run := filepath.Join(tmp, "run")
	if code, _, stderr := runBinary(t, "dsbench", "--mode", "select", "--scales", "1", "--cycles", "1", "--duration", "1s", "--threads", "1", "--out", run); code != ExitOK {
		t.Fatalf("dsbench: exit %d\n%s", code, stderr)
	}
	if err := os.Symlink(run, filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	// A run killed before its results: results.json is still to come.
	early := filepath.Join(tmp, "early")
	if err := os.Mkdir(early, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(run, "manifest.json"), filepath.Join(early, "manifest.json"))

	var targets []string
	for _, name := range []string{"manifest.json", "results.json", "journal.jsonl", "live.jsonl", "residence_scale1.hlog", "results.log", "dsbench.db", "report.html"} {
		if _, err := os.Stat(filepath.Join(run, name)); err != nil {
			t.Fatalf("the run wrote no %s: %v", name, err)
		}
		targets = append(targets, filepath.Join(run, name))
	}
	targets = append(targets, filepath.Join(tmp, "link", "results.json"), filepath.Join(early, "results.json"), filepath.Join(early, "journal.jsonl"))

	before := snapshot(t, tmp)
	for _, target := range targets {
		for _, c := range []struct {
			flag string
			args []string
		}{
			{"--html", []string{"report", run, "--html", target}},
			{"--html", []string{"compare", run, run, "--html", target}},
			{"--output", []string{"generate", "--size", "1000", "--output", target}},
		} {
			if c.args[0] == "report" && target == filepath.Join(run, "report.html") {
				continue // report's own page: allowed below
			}
			code, stdout, stderr := runBinary(t, c.args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != ExitBadInput || len(lines) != 1 || !strings.Contains(lines[0], c.flag+" "+target) || !strings.Contains(lines[0], "outside the run directory") {
				t.Errorf("%s: exit %d, want %d and one line naming %s and a fix; stderr:\n%s", strings.Join(c.args, " "), code, ExitBadInput, c.flag, stderr)
			}
			if stdout != "" {
				t.Errorf("%s: stdout %q, want nothing", strings.Join(c.args, " "), stdout)
			}
			if after := snapshot(t, tmp); !maps.EqualFunc(before, after, bytes.Equal) {
				t.Fatalf("%s changed the files under %s", strings.Join(c.args, " "), tmp)
			}
		}
	}
	for _, args := range [][]string{
		{"report", run, "--html", filepath.Join(run, "report.html")},
		{"report", run, "--html", filepath.Join(tmp, "page.html")},
		{"compare", run, run, "--html", filepath.Join(tmp, "compare.html")},
	} {
		if code, _, stderr := runBinary(t, args...); code != ExitOK {
			t.Errorf("%s: exit %d, want 0\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}

// snapshot is every file under dir, by path, with its bytes.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&os.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		m[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
