package netns

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// New fails half-way when the kernel refuses one of its objects; it must
// then remove what it made, and nothing else: here the second veth's name
// is already taken by a link New did not make, which must stay.
func TestNewFailingHalfWayRemovesWhatItMade(t *testing.T) {
	const prefix = "dgf"
	next := newBase(prefix, os.Getpid(), int(seq.Load())+1)
	taken := next.veth(2)
	if out, err := exec.Command("ip", "link", "add", taken, "type", "bridge").CombinedOutput(); err != nil {
		t.Fatalf("ip link add %s: %v: %s", taken, err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "link", "del", taken).Run() })

	nt, err := New(prefix, 3)
	if err == nil {
		nt.Close()
		t.Fatalf("New with %s taken succeeded", taken)
	}
	if !strings.Contains(err.Error(), taken) {
		t.Errorf("New's error %q does not name the link it could not make, %s", err, taken)
	}
	links, _ := exec.Command("ip", "-o", "link", "show").Output()
	namespaces, _ := exec.Command("ip", "netns", "list").Output()
	for _, made := range []string{next.bridge(), next.veth(1), next.namespace(1), next.namespace(2)} {
		if strings.Contains(string(links), made+":") || strings.Contains(string(links), made+"@") || strings.Contains(string(namespaces), made) {
			t.Errorf("%s, made before New failed, is still there", made)
		}
	}
	if !strings.Contains(string(links), taken+":") {
		t.Errorf("New removed %s, which it did not make", taken)
	}
}
