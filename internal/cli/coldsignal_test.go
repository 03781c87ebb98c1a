package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSignalWhileServerStoppedForColdCache: Ctrl-C or SIGTERM at the
// moment a cold-cache run (qac, wisconsin with --server) has stopped its
// private PostgreSQL to empty its cache. dbgauge starts the server again
// before it exits (exit 1, the signal named), and the instance file names
// the running postmaster, so the server answers and `dbgauge server stop`
// finds it.
func TestSignalWhileServerStoppedForColdCache(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	pidFile := filepath.Join(inst.Dir, "data", "postmaster.pid")
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"qac/SIGINT", syscall.SIGINT, []string{"qac", "--wisconsin", "1", "--cardinalities", "1000,2000", "--qe", "8"}},
		{"wisconsin/SIGTERM", syscall.SIGTERM, []string{"wisconsin", "--size", "1000", "--queries", "1-4", "--reps", "4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			if _, err := os.Stat(pidFile); err != nil {
				t.Fatalf("the server is not running before the run: %v", err)
			}
			cmd := exec.Command(os.Args[0], append(c.args, "--db", inst.URL, "--server", inst.Dir, "--cache", "cold", "--out", out)...)
			cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
			stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The server is stopped when its pid file is gone: send the
			// signal then (polled every millisecond; a restart takes a
			// few hundred).
			sent := false
			for !sent {
				select {
				case err := <-done:
					b, _ := os.ReadFile(stderr.Name())
					t.Fatalf("dbgauge ended (%v) before the server was stopped:\n%s", err, b)
				default:
				}
				if _, err := os.Stat(pidFile); os.IsNotExist(err) {
					cmd.Process.Signal(c.sig)
					sent = true
				}
				time.Sleep(time.Millisecond)
			}
			var exitErr error
			select {
			case exitErr = <-done:
			case <-time.After(3 * time.Minute):
				cmd.Process.Kill()
				t.Fatal("dbgauge did not end within 3 minutes of the signal")
			}
			b, _ := os.ReadFile(stderr.Name())
			if ee, ok := exitErr.(*exec.ExitError); !ok || ee.ExitCode() != ExitFailure {
				t.Errorf("exit %v, want %d:\n%s", exitErr, ExitFailure, b)
			}
			if !strings.Contains(string(b), "signal received") {
				t.Errorf("stderr does not name the signal:\n%s", b)
			}
			// The instance file names the running postmaster.
			got, err := server.Load(inst.Dir)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the server was left stopped: %v\n%s", err, b)
			}
			if first := strings.SplitN(string(pid), "\n", 2)[0]; first != strconv.Itoa(got.PID) || syscall.Kill(got.PID, 0) != nil {
				t.Errorf("instance file: pid %d; postmaster.pid: %s", got.PID, first)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			e, err := dbms.Open(ctx, got.URL)
			if err != nil {
				t.Fatalf("the server does not answer after the run: %v", err)
			}
			defer e.Close()
			if _, err := e.QueryRows(ctx, "SELECT 1"); err != nil {
				t.Errorf("SELECT 1: %v", err)
			}
		})
	}
}
