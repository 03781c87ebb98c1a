package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestJobsOfEarlierInterface checks what a new interface makes of the
// runs an earlier one recorded: one whose process lives (same pid, same
// start time) is running; one whose pid another process has now (another
// start time) has ended, its exit code not known; one whose record is
// unreadable is left out.
func TestJobsOfEarlierInterface(t *testing.T) {
	dir := t.TempDir()
	sleeper := exec.Command("sleep", "600")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	start, _, ok := procStart(sleeper.Process.Pid)
	if !ok {
		t.Fatal("the sleeper has no /proc entry")
	}
	jobs := filepath.Join(dir, filepath.FromSlash(jobsDir))
	record := func(name string, rec jobRecord, stderr string) {
		t.Helper()
		d := filepath.Join(jobs, name)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := rec.write(d); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(d, stderrFile), stderr)
	}
	at := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	record("20261128T080000Z-dsbench", jobRecord{Experiment: "dsbench", Rel: "20261128T080000Z-dsbench", Pid: sleeper.Process.Pid, PidStart: start, Started: at},
		"scale 1/1\rcycle 1/1 committed 10\n")
	record("20261128T080001Z-dsbench", jobRecord{Experiment: "dsbench", Rel: "20261128T080001Z-dsbench", Pid: os.Getpid(), PidStart: start + 1, Started: at.Add(time.Second)}, "")
	if err := os.MkdirAll(filepath.Join(jobs, "20261128T080002Z-dsbench"), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(jobs, "20261128T080002Z-dsbench", jobFile), "{not json")

	h := newUI(t, Options{Dir: dir}).(*Handler)
	got := h.Jobs()
	if len(got) != 2 {
		t.Fatalf("%d jobs, want 2: %+v", len(got), got)
	}
	reused, live := got[0], got[1] // newest first
	if !live.Running() || live.Pid != sleeper.Process.Pid || strings.Join(live.Lines, "|") != "scale 1/1|cycle 1/1 committed 10" {
		t.Errorf("the living run: %+v", live)
	}
	if reused.Running() || reused.ExitKnown {
		t.Errorf("the run whose pid another process has: %+v, want ended, exit code not known", reused)
	}
	_, body, _ := get(h, "/jobs")
	if !strings.Contains(body, "exit code not known") || !strings.Contains(body, "running") {
		t.Errorf("the jobs page:\n%s", body)
	}
	sleeper.Process.Kill()
	sleeper.Wait()
	if h.Jobs()[1].Running() {
		t.Errorf("the run still shows running once its process is gone")
	}
}
