package ui

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// jobsDir holds, in the directory of runs, one directory per run the
// interface launched, named as the run directory: job.json (jobRecord),
// and the run's stdout and stderr. They are not in the run directory
// itself, which a run must find empty (--out), and which a run refused at
// once leaves behind as nothing.
const jobsDir = ".dbgauge-ui/jobs"

// jobRecord is what a later interface needs to show a launched run again.
type jobRecord struct {
	Experiment string `json:"experiment"`
	// Rel is the run directory under the directory of runs, slashed.
	Rel     string `json:"run"`
	Command string `json:"command"` // passwords hidden
	Pid     int    `json:"pid"`
	// PidStart is the process's start time (procStart): with Pid, it
	// names the process for the life of the machine.
	PidStart uint64    `json:"pid_start"`
	Started  time.Time `json:"started"`
	Ended    time.Time `json:"ended,omitzero"`
	// ExitCode is set by the interface that launched the run, when it
	// saw it end.
	ExitCode *int `json:"exit_code,omitempty"`
}

const (
	jobFile    = "job.json"
	stdoutFile = "stdout"
	stderrFile = "stderr"
)

// write writes the record whole or not at all (a temporary file renamed).
func (rec jobRecord) write(dir string) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+jobFile+".new")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, jobFile))
}

// openOutput makes the job's directory and opens the files its run's
// stdout and stderr go to. The directories above it may be removed
// meanwhile by a run refused at once (forget): then again.
func (j *job) openOutput() ([]*os.File, error) {
	for tries := 0; ; tries++ {
		files, err := j.tryOutput()
		if err == nil || !errors.Is(err, fs.ErrNotExist) || tries == 10 {
			return files, err
		}
	}
}

func (j *job) tryOutput() ([]*os.File, error) {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return nil, err
	}
	var files []*os.File
	for _, name := range []string{stdoutFile, stderrFile} {
		f, err := os.OpenFile(filepath.Join(j.dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			for _, f := range files {
				f.Close()
			}
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func (j *job) stderrPath() string { return filepath.Join(j.dir, stderrFile) }

// forget removes the job's directory, and the directories above it that
// it leaves empty.
func (j *job) forget() {
	os.RemoveAll(j.dir)
	jobs := filepath.Dir(j.dir)
	if os.Remove(jobs) == nil {
		os.Remove(filepath.Dir(jobs)) // .dbgauge-ui, unless profiles are there
	}
}

// tailBytes bounds how much of a stderr file is read for its last lines.
const tailBytes = 64 << 10

// lastLinesOf are the last n lines of the file at path (none when it
// cannot be read).
func lastLinesOf(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > tailBytes {
		f.Seek(st.Size()-tailBytes, io.SeekStart)
	}
	t := newLastLines(n)
	io.Copy(t, f)
	return t.Lines()
}

// loadJobs are the runs launched into runs by earlier interfaces, oldest
// first; a directory without a readable record is left out.
func loadJobs(runs string) *jobs {
	js := &jobs{runs: runs, dir: filepath.Join(runs, filepath.FromSlash(jobsDir))}
	entries, _ := os.ReadDir(js.dir)
	for _, e := range entries {
		j := &job{dir: filepath.Join(js.dir, e.Name())}
		b, err := os.ReadFile(filepath.Join(j.dir, jobFile))
		if err != nil || json.Unmarshal(b, &j.rec) != nil || j.rec.Pid <= 0 {
			continue
		}
		js.list = append(js.list, j)
	}
	slices.SortStableFunc(js.list, func(a, b *job) int { return a.rec.Started.Compare(b.rec.Started) })
	return js
}
