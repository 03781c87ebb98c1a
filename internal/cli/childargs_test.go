package cli

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestChildArgs moves the passwords of URL-valued flags and the secret
// flags of a launched run's command line into its environment, and
// refuses URLs that one variable cannot serve.
func TestChildArgs(t *testing.T) {
	pw := dbms.PasswordEnv + "="
	for _, tc := range []struct {
		name      string
		args      []string
		argv, env []string
		refused   string
	}{
		{"inline", []string{"dsbench", "--db=postgres://u:p%40ss@h:1/db", "--scales=1"},
			[]string{"dsbench", "--db=postgres://u@h:1/db", "--scales=1"}, []string{pw + "p@ss"}, ""},
		{"separate", []string{"wisconsin", "--db", "mysql://root:x@unix(/tmp/s)/d"},
			[]string{"wisconsin", "--db=mysql://root@unix(/tmp/s)/d"}, []string{pw + "x"}, ""},
		{"parameter", []string{"dsbench", "--db=postgres://u@h:1/db?sslmode=disable&password=p"},
			[]string{"dsbench", "--db=postgres://u@h:1/db?sslmode=disable"}, []string{pw + "p"}, ""},
		{"no-password", []string{"dsbench", "--db=postgres://u@h/db"}, []string{"dsbench", "--db=postgres://u@h/db"}, nil, ""},
		{"embedded", []string{"dsbench", "--db=sqlite:/tmp/a:b@c.db"}, []string{"dsbench", "--db=sqlite:/tmp/a:b@c.db"}, nil, ""},
		{"token", []string{"dsbench", "--token", "T0k", "--nats=nats://127.0.0.1:4222"},
			[]string{"dsbench", "--nats=nats://127.0.0.1:4222"}, []string{tokenEnv + "=T0k"}, ""},
		{"sql-variant", []string{"abtest", "--db=postgres://u:p@h/db", "--a=SET work_mem='1MB'", "--b=SET x=1"},
			[]string{"abtest", "--db=postgres://u@h/db", "--a=SET work_mem='1MB'", "--b=SET x=1"}, []string{pw + "p"}, ""},
		{"same-passwords", []string{"abtest", "--a=postgres://u:p@h1/db", "--b=mysql://u:p@h2/db"},
			[]string{"abtest", "--a=postgres://u@h1/db", "--b=mysql://u@h2/db"}, []string{pw + "p"}, ""},
		{"different-passwords", []string{"abtest", "--a=postgres://u:p@h1/db", "--b=postgres://u:q@h2/db"}, nil, nil,
			"--a and --b give different passwords"},
		{"with-and-without", []string{"abtest", "--a=postgres://u:p@h1/db", "--b=postgres://u@h2/db"}, nil, nil,
			"--a gives a password and --b none"},
	} {
		argv, env, err := childArgs(tc.args)
		switch {
		case tc.refused != "":
			if err == nil || exitCode(err) != ExitBadInput || !strings.Contains(err.Error(), tc.refused) || strings.Contains(err.Error(), "p@") {
				t.Errorf("%s: %v, want bad input saying %q", tc.name, err, tc.refused)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !slices.Equal(argv, tc.argv) || !slices.Equal(env, tc.env):
			t.Errorf("%s: argv %q env %q, want %q %q", tc.name, argv, env, tc.argv, tc.env)
		}
	}
}

// TestLaunchedRunPassword launches a run from the form with the
// password in --db, on a PostgreSQL role that must give it: the run
// connects, and neither its command line (/proc/PID/cmdline, which
// every local user reads), nor its run directory, nor the jobs page
// holds the password; its environment does.
func TestLaunchedRunPassword(t *testing.T) {
	bin := dbgaugeBinary(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	const pw = "s3cret-w0rd"
	raw := servertest.PostgresPasswordRole(t, inst, "gauge", pw)
	db, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	db.User = url.UserPassword("gauge", pw)
	h, dir := formUI(t, bin, false)
	// A cycle of 5 s: the run is still going when its process is read.
	rel := launch(t, h, "dsbench", "db", db.String(), "scales", "1", "cycles", "1", "duration", "5s", "threads", "1")
	pid := 0
	for _, j := range h.Jobs() {
		if j.Rel == rel {
			pid = j.Pid
		}
	}
	// Go's Start returns once execve has closed the child's close-on-exec
	// pipe, which the kernel does before it sets the new program's
	// arguments: for a moment /proc/PID/cmdline reads empty. Read it
	// again until it is there or the run has ended.
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	for deadline := time.Now().Add(time.Minute); err == nil && len(cmdline) == 0 && time.Now().Before(deadline) && jobRunning(h, rel); {
		time.Sleep(10 * time.Millisecond)
		cmdline, err = os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	}
	if err != nil || len(cmdline) == 0 {
		// Ended already (a zombie's command line is empty): say how.
		j := waitJob(t, h, rel)
		t.Fatalf("the launched run %d: command line %q (%v); it ended with exit code %d:\n%s", pid, cmdline, err, j.ExitCode, strings.Join(j.Lines, "\n"))
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(string(cmdline), "\x00")
	if strings.Contains(string(cmdline), pw) || !slices.Contains(args, "--db="+raw) {
		t.Errorf("the launched run's command line %q: want --db=%s and no password", args, raw)
	}
	if !slices.Contains(strings.Split(string(environ), "\x00"), dbms.PasswordEnv+"="+pw) {
		t.Errorf("the launched run's environment has no %s=<the password>", dbms.PasswordEnv)
	}
	j := waitJob(t, h, rel)
	if j.ExitCode != 0 {
		t.Fatalf("the launched run: exit code %d\n%s", j.ExitCode, strings.Join(j.Lines, "\n"))
	}
	filepath.WalkDir(filepath.Join(dir, rel), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), pw) {
				t.Errorf("%s holds the password", path)
			}
		}
		return nil
	})
	if page := getPage(h, "/jobs"); strings.Contains(page.body, pw) || !strings.Contains(page.body, "gauge:***@") {
		t.Errorf("the jobs page shows the password, or not the URL with it hidden:\n%s", page.body)
	}
}

// TestLaunchRefusesTwoPasswords: a form whose URLs one variable cannot
// serve comes back with the line saying why, and nothing starts.
func TestLaunchRefusesTwoPasswords(t *testing.T) {
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	got := postForm(h, "/new/abtest", formOf(csrfOf(t, h, "abtest"),
		"a", "postgres://u:first@127.0.0.1:1/db", "b", "postgres://u:second@127.0.0.1:2/db"))
	_, problem, _ := strings.Cut(got.body, `id="problem"`)
	problem, _, _ = strings.Cut(problem, "</p>")
	if got.code != 400 || !strings.Contains(problem, "--a and --b give different passwords") || strings.Contains(problem, "first") || strings.Contains(problem, "second") {
		t.Errorf("status %d, problem %q: want 400 and the line saying why, without the passwords", got.code, problem)
	}
	if left := entries(t, dir); len(left) != 0 {
		t.Errorf("the refused launch left %v", left)
	}
}
