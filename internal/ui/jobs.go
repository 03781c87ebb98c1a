package ui

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// tailLines is how many of a child's last stderr lines are kept.
const tailLines = 20

// jobs are the runs the interface launched: each a child process, the
// dbgauge binary itself, reaped when it ends (no zombies), kept in memory
// for the jobs page while the interface runs.
type jobs struct {
	mu      sync.Mutex
	list    []*job
	running sync.WaitGroup
}

// job is one launched run; the fields after cmd change under jobs.mu.
type job struct {
	experiment, dir, rel, command string
	pid                           int
	started                       time.Time
	cmd                           *exec.Cmd
	stderr                        *lastLines
	ended                         time.Time
	exitCode                      int
}

// Job is what the jobs page shows of a launched run.
type Job struct {
	Experiment string
	// Rel is the run directory under the directory of runs; Command the
	// command line it runs (passwords hidden).
	Rel, Command string
	Pid          int
	// Ended is zero while the child runs; ExitCode is then its exit code
	// (-1 when a signal ended it).
	Started, Ended time.Time
	ExitCode       int
	// Lines are the last lines of its stderr.
	Lines []string
}

// Running tells whether the child has not ended yet.
func (j Job) Running() bool { return j.Ended.IsZero() }

// start launches binary with args (an experiment's command line, shown
// as shown) into a new run directory under runs, named as the command
// line names its default run directory (results.DefaultDir): args and
// --out that directory. The directory is removed again, by DefaultDir's
// release, if the run ends without writing anything into it (refused at
// once).
func (js *jobs) start(binary, runs, experiment string, args, shown []string) (Job, error) {
	dir, release, err := results.DefaultDir(runs, experiment, time.Now())
	if err != nil {
		return Job{}, err
	}
	rel, err := filepath.Rel(runs, dir)
	if err != nil {
		release()
		return Job{}, err
	}
	out := []string{"--out", dir}
	cmd := exec.Command(binary, append(slices.Clip(args), out...)...)
	j := &job{experiment: experiment, dir: dir, rel: filepath.ToSlash(rel), cmd: cmd, stderr: newLastLines(tailLines),
		command: commandLine(append(slices.Clip(shown), out...))}
	cmd.Stderr = j.stderr
	// A group of its own: the terminal's Ctrl-C reaches the interface
	// only, which passes it on once (EndRuns), so that every child gets
	// exactly one SIGINT, as on the command line.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		release()
		return Job{}, fmt.Errorf("start %s: %w", binary, err)
	}
	j.pid, j.started = cmd.Process.Pid, time.Now()
	js.mu.Lock()
	js.list = append(js.list, j)
	js.mu.Unlock()
	js.running.Add(1)
	go func() {
		defer js.running.Done()
		cmd.Wait() // the exit code is in ProcessState
		release()
		js.mu.Lock()
		j.ended, j.exitCode = time.Now(), cmd.ProcessState.ExitCode()
		js.mu.Unlock()
	}()
	return js.view(j), nil
}

func (js *jobs) view(j *job) Job {
	js.mu.Lock()
	defer js.mu.Unlock()
	return Job{Experiment: j.experiment, Rel: j.rel, Command: j.command, Pid: j.pid, Started: j.started,
		Ended: j.ended, ExitCode: j.exitCode, Lines: j.stderr.Lines()}
}

// all are the launched runs, newest first.
func (js *jobs) all() []Job {
	js.mu.Lock()
	list := slices.Clone(js.list)
	js.mu.Unlock()
	out := make([]Job, len(list))
	for i, j := range list {
		out[len(list)-1-i] = js.view(j)
	}
	return out
}

// interrupt sends SIGINT to every child still running, as Ctrl-C does on
// the command line (each ends its run keeping every finished
// measurement), and waits up to limit for them all to end. It returns the
// pids of those still running then.
func (js *jobs) interrupt(limit time.Duration) []int {
	js.mu.Lock()
	for _, j := range js.list {
		if j.ended.IsZero() {
			j.cmd.Process.Signal(os.Interrupt)
		}
	}
	js.mu.Unlock()
	done := make(chan struct{})
	go func() { js.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(limit):
	}
	var left []int
	for _, j := range js.all() {
		if j.Running() {
			left = append(left, j.Pid)
		}
	}
	return left
}

// Handler is the interface's HTTP handler. The runs it launches are its
// child processes: EndRuns ends them when the interface ends.
type Handler struct {
	http.Handler
	jobs *jobs
	csrf string // the forms' secret, for tests
}

// EndRuns interrupts the runs still going (SIGINT, as Ctrl-C) and waits
// up to limit for them to end; it returns the pids of those that did not.
func (h *Handler) EndRuns(limit time.Duration) []int { return h.jobs.interrupt(limit) }

// Jobs are the runs launched so far, newest first.
func (h *Handler) Jobs() []Job { return h.jobs.all() }

// jobsPage answers GET /jobs: the launched runs, running or ended, with
// their exit codes and last lines.
func (s *server) jobsPage(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "jobs.html", s.jobs.all())
}
