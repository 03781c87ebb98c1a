// Package netnstest gives tests a set of network namespaces joined by a
// bridge (package netns), removed when the test ends.
package netnstest

import (
	"testing"

	"github.com/dbgauge/dbgauge/internal/netns"
)

// Prefix starts the names of every namespace, veth and bridge that tests
// make through ForTest.
const Prefix = "dgn"

// ForTest creates n namespaces (see netns.New) and closes them when the test
// ends, after the clean-ups the test registers later (so a test's own
// processes are stopped first; Close kills whatever is left inside). It
// fails the test, never skips it, when the namespaces cannot be made: not
// root, no ip command, or the kernel refusing.
func ForTest(t testing.TB, n int) *netns.Net {
	t.Helper()
	nt, err := netns.New(Prefix, n)
	if err != nil {
		t.Fatalf("network namespaces for the test: %v", err)
	}
	t.Cleanup(func() {
		if err := nt.Close(); err != nil {
			t.Errorf("remove the test's network namespaces: %v", err)
		}
	})
	return nt
}
