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

// tailLines is how many of a child's last stderr lines are shown.
const tailLines = 20

// jobs are the runs the interface launched: each a process of its own,
// the dbgauge binary itself, in a session of its own, its stdout and
// stderr in files (jobrecord.go), so that it goes on whatever becomes of
// the interface (closed terminal, Ctrl-C, kill) and a later dbgauge ui
// over the same directory of runs shows it again. A run this process
// launched is its child, reaped when it ends (no zombies); one an earlier
// interface launched is followed by its pid and start time.
type jobs struct {
	mu sync.Mutex
	// runs is the directory of runs; dir holds one directory per
	// launched run (jobsDir).
	runs, dir string
	list      []*job
}

// job is one launched run; rec and lines change under jobs.mu.
type job struct {
	rec jobRecord
	// dir is its directory under jobs.dir; cmd is nil for a run an
	// earlier interface launched.
	dir string
	cmd *exec.Cmd
	// lines are its last lines once its directory is gone (a run refused
	// at once leaves nothing behind); nil before.
	lines []string
}

// Job is what the jobs page shows of a launched run.
type Job struct {
	Experiment string
	// Rel is the run directory under the directory of runs; Command the
	// command line it runs (passwords hidden).
	Rel, Command string
	Pid          int
	// Ended is zero while the run goes on. ExitCode is its exit code when
	// ExitKnown (-1 when a signal ended it); only the interface that
	// launched a run learns it.
	Started, Ended time.Time
	ExitCode       int
	ExitKnown      bool
	// Lines are the last lines of its stderr.
	Lines []string
}

// Running tells whether the run has not ended yet.
func (j Job) Running() bool { return j.Ended.IsZero() }

// start launches binary with args (an experiment's command line, shown
// as shown) and env added to the interface's environment (the secrets:
// Experiments.Child) into a new run directory under runs, named as the
// command line names its default run directory (results.DefaultDir):
// args and --out that directory. The directory is removed again, by DefaultDir's
// release, if the run ends without writing anything into it (refused at
// once), and so is the job's own.
func (js *jobs) start(binary, experiment string, args, env, shown []string) (Job, error) {
	dir, release, err := results.DefaultDir(js.runs, experiment, time.Now())
	if err != nil {
		return Job{}, err
	}
	rel, err := filepath.Rel(js.runs, dir)
	if err != nil {
		release()
		return Job{}, err
	}
	out := []string{"--out", dir}
	cmd := exec.Command(binary, append(slices.Clip(args), out...)...)
	j := &job{dir: filepath.Join(js.dir, filepath.Base(dir)), cmd: cmd,
		rec: jobRecord{Experiment: experiment, Rel: filepath.ToSlash(rel), Command: commandLine(append(slices.Clip(shown), out...))}}
	files, err := j.openOutput()
	if err != nil {
		j.forget()
		release()
		return Job{}, fmt.Errorf("the run's output files: %w", err)
	}
	cmd.Stdout, cmd.Stderr = files[0], files[1]
	// A session of its own: no signal of the interface's terminal reaches
	// it (Ctrl-C, the hangup of a closed ssh session), and it has no
	// terminal to lose; its output goes to files, not to a pipe that
	// would break when the interface ends.
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	for _, f := range files {
		f.Close() // the child holds its own
	}
	if err != nil {
		j.forget()
		release()
		return Job{}, fmt.Errorf("start %s: %w", binary, err)
	}
	j.rec.Pid, j.rec.Started = cmd.Process.Pid, time.Now()
	j.rec.PidStart, _, _ = procStart(j.rec.Pid)
	if err := j.rec.write(j.dir); err != nil {
		// The run goes on; only a later interface will not know it.
		j.lines = []string{"dbgauge ui: a later dbgauge ui will not show this run: " + err.Error()}
	}
	js.mu.Lock()
	js.list = append(js.list, j)
	js.mu.Unlock()
	go js.reap(j, release)
	return js.view(j), nil
}

// reap waits for a child to end and records how; a run refused at once
// leaves no run directory, and its job's directory goes too.
func (js *jobs) reap(j *job, release func()) {
	j.cmd.Wait() // the exit code is in ProcessState
	lines := lastLinesOf(j.stderrPath(), tailLines)
	release()
	js.mu.Lock()
	defer js.mu.Unlock()
	j.rec.Ended, j.rec.ExitCode = time.Now(), new(int)
	*j.rec.ExitCode = j.cmd.ProcessState.ExitCode()
	if _, err := os.Stat(filepath.Join(js.runs, filepath.FromSlash(j.rec.Rel))); err != nil {
		j.lines = lines
		j.forget()
		return
	}
	if err := j.rec.write(j.dir); err != nil {
		j.lines = append(lines, "dbgauge ui: its end was not recorded: "+err.Error())
	}
}

// running tells whether j's run goes on.
func (j *job) running() bool {
	if !j.rec.Ended.IsZero() {
		return false
	}
	if j.cmd != nil {
		return true // reap sets Ended
	}
	start, zombie, ok := procStart(j.rec.Pid)
	return ok && !zombie && start == j.rec.PidStart
}

func (js *jobs) view(j *job) Job {
	js.mu.Lock()
	defer js.mu.Unlock()
	if j.cmd == nil && j.rec.Ended.IsZero() && !j.running() {
		j.rec.Ended = time.Now() // seen ended by this interface
	}
	v := Job{Experiment: j.rec.Experiment, Rel: j.rec.Rel, Command: j.rec.Command, Pid: j.rec.Pid,
		Started: j.rec.Started, Ended: j.rec.Ended, Lines: j.lines}
	if j.rec.ExitCode != nil {
		v.ExitCode, v.ExitKnown = *j.rec.ExitCode, true
	}
	if v.Lines == nil {
		v.Lines = lastLinesOf(j.stderrPath(), tailLines)
	}
	return v
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

// interrupt sends SIGINT to every launched run still going, as Ctrl-C
// does on the command line (each ends its run keeping every finished
// measurement), and waits up to limit for them all to end. It returns the
// pids of those still running then.
func (js *jobs) interrupt(limit time.Duration) []int {
	js.mu.Lock()
	for _, j := range js.list {
		if j.running() {
			syscall.Kill(j.rec.Pid, syscall.SIGINT)
		}
	}
	js.mu.Unlock()
	var left []int
	for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		left = left[:0]
		for _, j := range js.all() {
			if j.Running() {
				left = append(left, j.Pid)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}

// Handler is the interface's HTTP handler.
type Handler struct {
	http.Handler
	jobs *jobs
	csrf string // the forms' secret, for tests
}

// EndRuns interrupts the launched runs still going (SIGINT, as Ctrl-C)
// and waits up to limit for them to end; it returns the pids of those
// that did not. dbgauge ui does not call it: its runs outlive it.
func (h *Handler) EndRuns(limit time.Duration) []int { return h.jobs.interrupt(limit) }

// Jobs are the launched runs, newest first: those this interface launched
// and those earlier ones over the same directory of runs did.
func (h *Handler) Jobs() []Job { return h.jobs.all() }

// jobsPage answers GET /jobs: the launched runs, running or ended, with
// their exit codes and last lines.
func (s *server) jobsPage(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "jobs.html", s.jobs.all())
}
