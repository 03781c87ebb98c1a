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

// Names carry the pid, and pids are reused: objects with this process's
// pid that none of its Nets made were left by an earlier process with the
// same pid, and New removes them like any other stale ones.
func TestNewRemovesWhatAnEarlierProcessWithThisPidLeft(t *testing.T) {
	stale := newBase("dgp", os.Getpid(), int(seq.Load())+18) // a counter no Net of this test reaches
	for _, args := range [][]string{{"link", "add", stale.bridge(), "type", "bridge"}, {"netns", "add", stale.namespace(1)}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
	}
	t.Cleanup(func() {
		exec.Command("ip", "link", "del", stale.bridge()).Run()
		exec.Command("ip", "netns", "del", stale.namespace(1)).Run()
	})
	nt, err := New("dgp", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer nt.Close()
	if exists(object{name: stale.bridge()}) || exists(object{name: stale.namespace(1), ns: true}) {
		t.Errorf("New left %s and %s, made by no Net of this process", stale.bridge(), stale.namespace(1))
	}
	if !exists(object{name: nt.base.bridge()}) {
		t.Errorf("New's own bridge %s is missing", nt.base.bridge())
	}
}
