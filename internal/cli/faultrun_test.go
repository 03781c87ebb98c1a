package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// runWatching runs dbgauge (this test binary, see TestMain) with args and
// calls onLine with every line of its stderr as it comes, with the
// process, so that a test can inject a fault (or a signal) at a chosen
// moment. It returns the lines, its stdout and the exit code (-1 for a
// process the test killed with a signal), and fails the test when dbgauge
// runs for more than five minutes.
func runWatching(t *testing.T, args []string, onLine func(line string, p *os.Process)) (lines []string, stdout string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	var o bytes.Buffer
	cmd.Stdout = &o
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var tooLong atomic.Bool
	killer := time.AfterFunc(5*time.Minute, func() { tooLong.Store(true); cmd.Process.Kill() })
	defer killer.Stop()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if onLine != nil {
			onLine(sc.Text(), cmd.Process)
		}
	}
	err = cmd.Wait()
	if tooLong.Load() {
		t.Fatalf("dbgauge did not end within five minutes; stderr:\n%s", strings.Join(lines, "\n"))
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return lines, o.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return lines, o.String(), 0
}

// lockSQLite takes the exclusive lock of the SQLite database at path from
// a session of its own (waiting up to a minute for the run's writers) and
// returns the function that lets it go; the test's end lets it go too.
func lockSQLite(t *testing.T, path string) (release func()) {
	t.Helper()
	// A short busy time-out, tried again every millisecond: SQLite's own
	// busy handler backs off to 100 ms between tries and may lose every
	// gap between the writes of a run that writes without pause
	// (speedup's result relations), so that the lock came too late.
	var e dbms.Engine
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		err := errors.New("")
		if e == nil {
			e, err = dbms.Open(context.Background(), "sqlite:"+path+"?_busy_timeout=1")
		}
		if e != nil {
			if _, err = e.Exec(context.Background(), "BEGIN EXCLUSIVE"); err == nil {
				break
			}
		}
		if time.Now().After(deadline) || !strings.Contains(err.Error(), "locked") && !strings.Contains(err.Error(), "busy") {
			if e != nil {
				e.Close()
			}
			t.Fatalf("lock %s: %v", path, err)
		}
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		if _, err := e.Exec(context.Background(), "COMMIT"); err != nil {
			t.Errorf("unlock %s: %v", path, err)
		}
		e.Close()
	}
	t.Cleanup(release)
	return release
}

// runResults is the common header of every results.json.
type runResults struct {
	Complete bool   `json:"complete"`
	Error    string `json:"error"`
}
