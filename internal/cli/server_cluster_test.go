package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerClusterBadInput: cluster flags where they do not fit get one
// line naming the flag, exit 2, and nothing on disk.
func TestServerClusterBadInput(t *testing.T) {
	occupied := t.TempDir()
	os.WriteFile(filepath.Join(occupied, "notes.txt"), []byte("mine"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"galera", "--nodes", "0"}, "--nodes 0: give 1 to 9"},
		{[]string{"galera", "--standbys", "2"}, "a galera cluster's size is --nodes, not --standbys"},
		{[]string{"mariadb", "--nodes", "3"}, "--nodes is for clusters"},
		{[]string{"postgres", "--sync"}, "--sync is for clusters"},
		{[]string{"postgres", "--standbys", "0"}, "--standbys 0: give 1 to 8"},
		{[]string{"postgres", "--standbys", "2", "--nodes", "3"}, "a postgres cluster's size is --standbys, not --nodes"},
		{[]string{"postgres", "--standbys", "2", "--port", "5999"}, "--port is for one instance"},
		{[]string{"galera", "--socket"}, "--socket is for one instance"},
		{[]string{"cockroach"}, "unknown server engine \"cockroach\""},
	} {
		dir := filepath.Join(t.TempDir(), "c")
		args := append([]string{"server", "start"}, append(tc.args, "--dir", dir)...)
		code, _, stderr := run(args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want 2 and one line with %q", args, code, stderr, tc.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v left %s behind", args, dir)
		}
	}
	code, _, stderr := run("server", "start", "galera", "--dir", occupied)
	if code != 2 || !strings.Contains(stderr, "is not empty and holds no cluster") {
		t.Errorf("a cluster in an occupied directory: exit %d, %q", code, stderr)
	}
	if entries, _ := os.ReadDir(occupied); len(entries) != 1 {
		t.Errorf("the occupied directory now holds %d entries, want its 1", len(entries))
	}
}
