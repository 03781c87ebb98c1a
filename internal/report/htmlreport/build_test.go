package htmlreport

import "testing"

// The manifest's file system row: never a bare "at" when the run did not
// find its file system (as runs with a relative directory did).
func TestFileSystemLabel(t *testing.T) {
	for _, c := range []struct{ fstype, mount, want string }{
		{"ext4", "/", "ext4 at /"},
		{"", "", "not recorded"},
		{"tmpfs", "", "tmpfs"},
		{"", "/srv", "mounted at /srv"},
	} {
		if got := fileSystemLabel(c.fstype, c.mount); got != c.want {
			t.Errorf("%q, %q: %q, want %q", c.fstype, c.mount, got, c.want)
		}
	}
}
