package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad storage input: one line naming the problem, exit code 2, neither the
// run directory nor anything in --dir written.
func TestStorageBadInput(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "data")
	os.Mkdir(dir, 0o755)
	file := writeFile(t, tmp, "file", "")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no dir", []string{"storage"}, "--dir is required"},
		{"missing dir", []string{"storage", "--dir", filepath.Join(tmp, "nope")}, "does not exist"},
		{"dir is a file", []string{"storage", "--dir", file}, "not a directory"},
		// Even root cannot create files in /proc.
		{"unwritable dir", []string{"storage", "--dir", "/proc"}, "not writable"},
		{"size too large for the disk", []string{"storage", "--dir", dir, "--size", "8000TiB"}, "does not fit"},
		{"size not a size", []string{"storage", "--dir", dir, "--size", "lots"}, "not a size"},
		{"size too small", []string{"storage", "--dir", dir, "--size", "4KiB"}, "at least 1MiB"},
		{"zero duration", []string{"storage", "--dir", dir, "--duration", "0s"}, "must be positive"},
		{"negative duration", []string{"storage", "--dir", dir, "--duration", "-1s"}, "must be positive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			code, stdout, stderr := run(append(c.args, "--out", out)...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("stderr %q stdout %q: want one line containing %q", stderr, stdout, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written on bad input", out)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left in --dir: %v", left)
			}
		})
	}
}

func TestStorageCommand(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := run("storage", "--dir", dir, "--size", "1MiB", "--duration", "50ms", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "sync write (commit)") || !strings.Contains(stdout, out) {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, name := range []string{"manifest.json", "results.json", "storage.txt", "storage.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s missing: %v", name, err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in --dir: %v", left)
	}
}
