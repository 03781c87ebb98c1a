package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// procBound bounds every wait of the agent fault tests for a process or a
// line: a process still running then is stuck, and the test fails.
const procBound = 3 * time.Minute

// proc is a dbgauge process of a test (a master or an agent) whose stderr
// lines are collected as they come, so that a test can wait for one and
// then strike.
type proc struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd

	mu      sync.Mutex
	lines   []string
	changed chan struct{} // closed and replaced on every line and at the end
	ended   bool
	endedAt time.Time
	code    int
}

// startProc runs bin (os.Args[0]: this test binary as dbgauge, see
// TestMain) with args; the test's end kills it if it still runs.
func startProc(t *testing.T, name, bin string, args ...string) *proc {
	t.Helper()
	return startCmd(t, name, exec.Command(bin, args...))
}

// startCmd runs cmd (dbgauge, this test binary, perhaps inside a network
// namespace) as startProc does.
func startCmd(t *testing.T, name string, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{t: t, name: name, changed: make(chan struct{}), cmd: cmd}
	p.cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.signal()
			p.mu.Unlock()
		}
		err := p.cmd.Wait()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.ended, p.endedAt, p.code = true, time.Now(), 0
		if ee, ok := err.(*exec.ExitError); ok {
			p.code = ee.ExitCode()
		} else if err != nil {
			p.code = -2
		}
		p.signal()
	}()
	t.Cleanup(func() {
		p.mu.Lock()
		ended := p.ended
		p.mu.Unlock()
		if !ended {
			p.cmd.Process.Signal(syscall.SIGCONT)
			p.cmd.Process.Kill()
		}
	})
	return p
}

func (p *proc) signal() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// stderr is what the process wrote to its stderr so far.
func (p *proc) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// waitLine waits for a line of stderr matching re and returns its
// submatches; the process ending first, or procBound passing, fails the
// test.
func (p *proc) waitLine(re string) []string {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(procBound)
	seen := 0
	for {
		p.mu.Lock()
		for ; seen < len(p.lines); seen++ {
			if m := rx.FindStringSubmatch(p.lines[seen]); m != nil {
				p.mu.Unlock()
				return m
			}
		}
		ended, ch := p.ended, p.changed
		p.mu.Unlock()
		if ended {
			p.t.Fatalf("%s ended (exit %d) before a line matching %q; stderr:\n%s", p.name, p.code, re, p.stderr())
		}
		select {
		case <-ch:
		case <-deadline:
			p.t.Fatalf("%s wrote no line matching %q within %v; stderr:\n%s", p.name, re, procBound, p.stderr())
		}
	}
}

// wait waits for the process to end and returns its exit code (-1: killed
// by a signal); procBound passing fails the test.
func (p *proc) wait() int {
	p.t.Helper()
	deadline := time.After(procBound)
	for {
		p.mu.Lock()
		ended, code, ch := p.ended, p.code, p.changed
		p.mu.Unlock()
		if ended {
			return code
		}
		select {
		case <-ch:
		case <-deadline:
			p.t.Fatalf("%s did not end within %v; stderr:\n%s", p.name, procBound, p.stderr())
		}
	}
}

func (p *proc) kill(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("%v to %s: %v", sig, p.name, err)
	}
}

// otherSessions counts the server's sessions besides the caller's own.
func otherSessions(t *testing.T, url string) int {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rows, err := e.QueryRows(context.Background(),
		"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(rows[0][0])
	return n
}

// noSessionsLeft fails the test unless the server's sessions of the run
// (every one but the test's) are gone: a backend notices a closed socket
// at once, but leaves pg_stat_activity a moment later, hence the bounded
// polling.
func noSessionsLeft(t *testing.T, url string) {
	t.Helper()
	n := 0
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if n = otherSessions(t, url); n == 0 {
			return
		}
	}
	t.Errorf("the server still has %d sessions of the run after its processes ended", n)
}

// agentLogs are the interval logs an agent kept under its --dir (one
// directory per run).
func agentLogs(t *testing.T, dir string) []string {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "*", "*.hlog"))
	if err != nil {
		t.Fatal(err)
	}
	return logs
}
