package sysinfo

import (
	"os"
	"path/filepath"
	"testing"
)

// The mount of a path in a captured mount table: the longest mount point
// above it (not one that only shares a prefix of its name), the last of
// two mounted on one point, a mount point with an escaped space.
func TestMountOf(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "mounts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, fstype, mount string }{
		{"/", "ext4", "/"},
		{"/home/u/runs/20250101T000000Z-wisconsin", "ext4", "/"},
		{"/tmp", "tmpfs", "/tmp"},
		{"/tmp/x/y", "tmpfs", "/tmp"},
		{"/tmpdir/run", "ext4", "/"}, // /tmp is not above /tmpdir
		{"/srv/data/run", "xfs", "/srv/data"},
		{"/srv/data disk/run", "btrfs", "/srv/data disk"},
		{"/srv/data/pg/base", "overlay", "/srv/data/pg"},
		{"/srv/data/run/../pg", "overlay", "/srv/data/pg"},
	} {
		fstype, mount := mountOf(b, c.path)
		if fstype != c.fstype || mount != c.mount {
			t.Errorf("%s: %q at %q, want %q at %q", c.path, fstype, mount, c.fstype, c.mount)
		}
	}
	if fstype, mount := mountOf([]byte("garbage\n\n"), "/x"); fstype != "" || mount != "" {
		t.Errorf("no table: %q at %q", fstype, mount)
	}
}

// A run directory given relative to the working directory (the default
// runs/<time>-<experiment>, or --out r1) is on the same file system as
// its absolute path, not on none: reports said "file system: at".
func TestDescribeRelativeDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("runs", "r1"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantType, wantMount := fileSystem(filepath.Join(dir, "runs", "r1"))
	if wantType == "" || wantMount == "" {
		t.Fatalf("absolute %s: no mount found", dir)
	}
	for _, rel := range []string{filepath.Join("runs", "r1"), filepath.Join("runs", "not-yet-made")} {
		s := Describe(rel)
		if s.FileSystem != wantType || s.Mount != wantMount {
			t.Errorf("Describe(%q): %q at %q, want %q at %q", rel, s.FileSystem, s.Mount, wantType, wantMount)
		}
	}
}
