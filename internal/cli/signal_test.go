package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestMain lets the test binary be dbgauge itself (DBGAUGE_TEST_MAIN=1),
// so that tests can send it real signals as a user's shell would.
func TestMain(m *testing.M) {
	if os.Getenv("DBGAUGE_TEST_MAIN") == "1" {
		os.Exit(Run(os.Stdout, os.Stderr, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// TestSignalsStopLoad: Ctrl-C (SIGINT) and SIGTERM in the middle of a
// minute-long cycle against a private PostgreSQL stop dsbench at once: its
// threads are in read(2) on blocking sockets most of the time, where only
// the abort reaches them. The run keeps what it measured (the population),
// names the interruption, stores no interrupted cycle and exits 1.
func TestSignalsStopLoad(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			cmd := exec.Command(os.Args[0], "dsbench", "--db", inst.URL, "--mode", "select", "--prepare",
				"--scales", "1", "--cycles", "1", "--duration", "60s", "--threads", "2", "--out", out)
			cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Progress lines come every second during a cycle: the first
			// one says both threads are loading the server.
			sc := bufio.NewScanner(stderr)
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if strings.Contains(sc.Text(), "cycle 1/1") && strings.Contains(sc.Text(), "committed") {
					break
				}
			}
			sent := time.Now()
			cmd.Process.Signal(sig)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			err = cmd.Wait()
			took := time.Since(sent)
			// The cycle had most of a minute to go: ending within 10 s
			// can only be the signal's doing (measured: under half a
			// second), and the bound leaves room for a loaded machine.
			t.Logf("dbgauge ended %v after %v", took, sig)
			if took > 10*time.Second {
				t.Errorf("dbgauge ended %v after %v", took, sig)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitFailure {
				t.Errorf("exit: %v, want code %d; stderr:\n%s", err, ExitFailure, strings.Join(lines, "\n"))
			}
			last := lines[len(lines)-1]
			if !strings.Contains(last, "signal received") {
				t.Errorf("last line %q: want it to name the signal", last)
			}
			var res struct {
				Complete bool   `json:"complete"`
				Error    string `json:"error"`
				Scales   []struct {
					Scale     int64   `json:"scale"`
					PopulateS float64 `json:"populate_s"`
					Cycles    []any   `json:"cycles"`
				} `json:"scales"`
			}
			b, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatalf("the measured population was not kept: %v", err)
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if res.Complete || !strings.Contains(res.Error, "signal") {
				t.Errorf("results.json: complete %v, error %q: want the interruption named", res.Complete, res.Error)
			}
			if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 0 {
				t.Errorf("results.json scales %+v: want scale 1's population kept and no interrupted cycle", res.Scales)
			}
		})
	}
}
