package taskstats

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childEnv makes the test binary act as a short child process instead of
// running tests (see burnChild).
const childEnv = "TASKSTATS_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "burn" {
		os.Exit(burnChild())
	}
	os.Exit(m.Run())
}

// burnChild burns CPU on one thread until taskstats itself charges that
// thread some CPU time, prints "tid cpu_us" and exits. Waiting for the
// kernel's own counter (ticks, with tick-based accounting) rather than for
// a fixed amount of work is what lets the parent assert a nonzero CPU time
// in the exit record without any timing threshold.
func burnChild() int {
	runtime.LockOSThread()
	c, err := Open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	tid := unix.Gettid()
	deadline := time.Now().Add(time.Minute) // a guard against a hang, not a measure
	for x := uint64(1); time.Now().Before(deadline); {
		for i := 0; i < 1_000_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		s, err := c.PID(tid)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if s.CPUTimeUS() > 0 {
			fmt.Println(tid, s.CPUTimeUS(), x%2)
			return 0
		}
	}
	fmt.Fprintln(os.Stderr, "no CPU time charged after a minute of burning")
	return 3
}

// skipIfUnavailable skips the test when taskstats genuinely cannot be used
// here, and fails it for any other error.
func skipIfUnavailable(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotPermitted) {
		t.Skipf("taskstats unavailable: %v", err)
	}
	t.Fatal(err)
}

func openClient(t *testing.T) *Client {
	t.Helper()
	c, err := Open()
	skipIfUnavailable(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func openListener(t *testing.T) *Listener {
	t.Helper()
	l, err := Listen()
	skipIfUnavailable(t, err)
	t.Cleanup(func() { l.Close() })
	return l
}
