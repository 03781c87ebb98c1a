package timing

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	got, err := ParseCPUList("0,2-4")
	if err != nil || !slices.Equal(got, []int{0, 2, 3, 4}) {
		t.Errorf("0,2-4: %v %v", got, err)
	}
	for _, bad := range []string{"", "a", "3-1", "-1"} {
		if _, err := ParseCPUList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Pin binds a process tree: a child and its grandchild both end up on the
// CPU asked for.
func TestPinProcessTree(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var kids []int
	for range 100 { // wait for the grandchild to appear
		snap, err := TakeSnapshot(SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if kids = Descendants(snap, cmd.Process.Pid); len(kids) > 0 {
			break
		}
		exec.Command("true").Run()
	}
	if len(kids) == 0 {
		t.Fatal("the shell's child never appeared")
	}
	if err := Pin([]int{0}, cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	for _, pid := range append([]int{cmd.Process.Pid}, kids...) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "Cpus_allowed_list:\t0\n") {
			t.Errorf("process %d not pinned to CPU 0", pid)
		}
	}
}
