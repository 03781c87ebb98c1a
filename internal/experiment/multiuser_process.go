package experiment

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The --processes mode: every user is its own operating-system process, as
// the IDM test spawned one process per user, so the time includes what a
// separate client process costs (its own scheduling, memory, driver). The
// master starts each user with the user command (dbgauge's hidden
// "multiuser user"), passing the engine URL in the environment (not on the
// command line, where ps would show its password) and the script as a
// flag. The user connects, says "ready" on its standard output and waits
// on file descriptor 3, the read end of one pipe shared by all users; the
// master closes the write end, which releases every user at the same
// instant, and each answers "done {json}" or "error message" when its
// script ends.

// MultiuserDBEnv is the environment variable that carries the engine URL to
// a user process.
const MultiuserDBEnv = "DBGAUGE_MULTIUSER_DB"

// UserReport is what a user process says when its script has ended.
type UserReport struct {
	MS   float64 `json:"ms"`
	Rows int64   `json:"rows"`
}

// MultiuserUser is the body of a user process: connect to the URL in
// MultiuserDBEnv, say ready on out, wait for release to reach its end, run
// the script on table and report. A failure is reported on out as well,
// so the master can say which user failed and why.
func MultiuserUser(ctx context.Context, table string, script []Retrieve, release io.Reader, out io.Writer) error {
	fail := func(err error) error {
		fmt.Fprintf(out, "error %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return err
	}
	url := os.Getenv(MultiuserDBEnv)
	if url == "" {
		return fail(fmt.Errorf("%s is not set: this command is started by dbgauge multiuser --processes", MultiuserDBEnv))
	}
	e, err := dbms.Open(ctx, url)
	if err != nil {
		return fail(fmt.Errorf("connect: %w", err))
	}
	defer e.Close()
	fmt.Fprintln(out, "ready")
	if _, err := io.Copy(io.Discard, release); err != nil {
		return fail(fmt.Errorf("wait for the release: %w", err))
	}
	start := time.Now()
	rows, err := runScript(ctx, e, table, script)
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		// Stopped (Ctrl-C reaches the users' process group too): the
		// script may have been cut short, its time is no measurement.
		err = interrupted(ctx)
	}
	if err != nil {
		return fail(err)
	}
	b, _ := json.Marshal(UserReport{MS: float64(elapsed.Nanoseconds()) / 1e6, Rows: rows})
	_, err = fmt.Fprintf(out, "done %s\n", b)
	return err
}

// userProc is one started user process.
type userProc struct {
	cmd    *exec.Cmd
	out    *bufio.Reader
	stderr bytes.Buffer
}

// line reads the process's next line; at its end, its standard error says
// why it stopped.
func (p *userProc) line() (string, error) {
	s, err := p.out.ReadString('\n')
	if err != nil {
		p.cmd.Wait()
		msg := strings.TrimSpace(p.stderr.String())
		if msg == "" {
			msg = "no output"
		}
		return "", fmt.Errorf("ended before answering: %s", lastLine(msg))
	}
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "error "); ok {
		return "", errors.New(rest)
	}
	return s, nil
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// runProcesses runs each script in its own process started with argv (the
// user command, to which --table and --script are added). All processes
// have connected and said ready before the clock starts.
func runProcesses(ctx context.Context, argv, env []string, url func(user int) string, table string, scripts [][]Retrieve) (usersRun, error) {
	relR, relW, err := os.Pipe()
	if err != nil {
		return usersRun{}, fmt.Errorf("release pipe: %w", err)
	}
	defer relW.Close()
	ctx, cancel := context.WithCancel(ctx)
	procs := make([]*userProc, 0, len(scripts))
	defer func() {
		cancel() // kills any user still running after a failure
		for _, p := range procs {
			p.cmd.Wait()
		}
	}()
	for u, s := range scripts {
		js, _ := json.Marshal(s)
		args := append(append([]string{}, argv[1:]...), "--table", table, "--script", string(js))
		p := &userProc{cmd: exec.CommandContext(ctx, argv[0], args...)}
		p.cmd.Env = append(append(os.Environ(), env...), MultiuserDBEnv+"="+url(u))
		p.cmd.ExtraFiles = []*os.File{relR}
		p.cmd.Stderr = &p.stderr
		stdout, err := p.cmd.StdoutPipe()
		if err != nil {
			relR.Close()
			return usersRun{}, err
		}
		p.out = bufio.NewReader(stdout)
		if err := p.cmd.Start(); err != nil {
			relR.Close()
			return usersRun{}, fmt.Errorf("user %d: start %s: %w", u+1, argv[0], err)
		}
		procs = append(procs, p)
	}
	// The users hold their own copies of the read end: the master's must
	// go, or it would never see the end of the pipe itself (and a user
	// that dies early would leave nothing to notice).
	relR.Close()
	for u, p := range procs {
		s, err := p.line()
		if err == nil && s != "ready" {
			err = fmt.Errorf("said %q instead of ready", s)
		}
		if err != nil {
			return usersRun{}, fmt.Errorf("user %d: %w", u+1, err)
		}
	}
	out := usersRun{users: make([]time.Duration, len(procs))}
	errs := make([]error, len(procs))
	rows := make([]int64, len(procs))
	var done sync.WaitGroup
	for u, p := range procs {
		done.Add(1)
		go func() {
			defer done.Done()
			s, err := p.line()
			rest, ok := strings.CutPrefix(s, "done ")
			var rep UserReport
			switch {
			case err != nil:
			case !ok:
				err = fmt.Errorf("said %q instead of done", s)
			default:
				err = json.Unmarshal([]byte(rest), &rep)
			}
			if err != nil {
				errs[u] = fmt.Errorf("user %d: %w", u+1, err)
				return
			}
			out.users[u], rows[u] = time.Duration(rep.MS*1e6), rep.Rows
		}()
	}
	start := time.Now()
	relW.Close()
	done.Wait()
	out.wall = time.Since(start)
	if ctx.Err() != nil {
		// Stopped while the users ran (the deferred cancel kills them): a
		// user that had finished does not make this start a measurement.
		return out, interrupted(ctx)
	}
	for _, n := range rows {
		out.rows += n
	}
	if err := errors.Join(errs...); err != nil {
		return out, err
	}
	for u, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			return out, fmt.Errorf("user %d: exit: %w: %s", u+1, err, lastLine(strings.TrimSpace(p.stderr.String())))
		}
	}
	procs = nil
	return out, nil
}
