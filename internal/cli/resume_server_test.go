package cli

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// TestResumeAfterServerRestart: a sweep on a private PostgreSQL is killed
// after its first scale, the server is stopped and started again as a
// user would after a reboot (server stop, server start, no --port), and
// the run resumes on the URL start prints, which is the one it had: the
// instance keeps its port. A second run, resumed after the instance was
// moved to another port, goes on there and says so in its manifest and
// results; a URL of another engine or database is refused with one line
// naming --db; a start whose kept port is taken names the port and --port.
func TestResumeAfterServerRestart(t *testing.T) {
	tmp := t.TempDir()
	srv := filepath.Join(tmp, "pg")
	first := serverStart(t, srv)
	t.Cleanup(func() { run("server", "stop", "postgres", "--dir", srv) })
	args := func(out string) []string {
		return []string{"dsbench", "--db", first, "--scales", "1,2", "--cycles", "2", "--duration", "1s", "--threads", "2", "--seed", "7", "--out", out}
	}

	// Restarted on its own port: the same URL resumes the run.
	a := filepath.Join(tmp, "a")
	killAt(t, args(a), "scale 1      median")
	serverStop(t, srv)
	if again := serverStart(t, srv); again != first {
		t.Fatalf("server start after stop printed %s, want the URL it had, %s", again, first)
	}
	if code, stdout, stderr := runBinary(t, "resume", a, "--db", first); code != 0 {
		t.Fatalf("resume after the restart: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if res := readJSON[dsbenchStored](t, filepath.Join(a, results.ResultsFile)); !res.Complete || len(res.Scales) != 2 {
		t.Errorf("resumed run: complete %v, %d scales; want complete with 2", res.Complete, len(res.Scales))
	}
	onceEach(t, a, 2)

	// Moved to another port: the new URL of the same engine and
	// database resumes the run, which records the move.
	b := filepath.Join(tmp, "b")
	killAt(t, args(b), "scale 1      median")
	serverStop(t, srv)
	moved := serverStart(t, srv, "--port", fmt.Sprint(freePort(t)))
	if moved == first {
		t.Fatalf("server start --port printed the old URL %s", moved)
	}
	u, _ := dbms.ParseURL(moved)
	for _, bad := range []string{
		strings.Replace(moved, "/dbgauge", "/other", 1),
		fmt.Sprintf("mysql://root:%s@127.0.0.1:%s/dbgauge", u.Password, u.Port),
	} {
		code, _, stderr := runBinary(t, "resume", b, "--db", bad)
		if code != ExitBadInput || !strings.Contains(stderr, "--db") || !strings.Contains(stderr, "not the run's engine and database") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("resume --db %s: exit %d, stderr %q; want %d and one line naming --db", bad, code, stderr, ExitBadInput)
		}
	}
	if code, stdout, stderr := runBinary(t, "resume", b, "--db", moved); code != 0 {
		t.Fatalf("resume on the moved server: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(b, results.ResultsFile))
	if !res.Complete || len(res.Scales) != 2 {
		t.Errorf("resumed run: complete %v, %d scales; want complete with 2", res.Complete, len(res.Scales))
	}
	man := manifestOf(t, b)
	if man.Config["db"] != u.Redacted() || man.DB != u.Redacted() {
		t.Errorf("manifest: db %v, DB %s; want the new URL %s", man.Config["db"], man.DB, u.Redacted())
	}
	old, _ := dbms.ParseURL(first)
	if want := "the run measured on " + old.Redacted() + " before"; !strings.Contains(strings.Join(res.Warnings, "\n"), want) {
		t.Errorf("results' warnings %q do not say %q", res.Warnings, want)
	}
	onceEach(t, b, 2)

	// Its kept port taken by another program: start names it and --port.
	serverStop(t, srv)
	l, err := net.Listen("tcp", "127.0.0.1:"+u.Port)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	code, stdout, stderr := run("server", "start", "postgres", "--dir", srv)
	if code != ExitBadInput || stdout != "" || !strings.Contains(stderr, "port "+u.Port) || !strings.Contains(stderr, "--port") {
		t.Errorf("start with its port taken: exit %d, stdout %q, stderr %q; want %d naming port %s and --port", code, stdout, stderr, ExitBadInput, u.Port)
	}
}

// serverStart starts the private PostgreSQL in dir through the command
// line and returns the URL it prints.
func serverStart(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	code, stdout, stderr := run(append([]string{"server", "start", "postgres", "--dir", dir}, flags...)...)
	if code != 0 {
		t.Fatalf("server start: exit %d: %s", code, stderr)
	}
	return strings.TrimSpace(stdout)
}

func serverStop(t *testing.T, dir string) {
	t.Helper()
	if code, _, stderr := run("server", "stop", "postgres", "--dir", dir); code != 0 {
		t.Fatalf("server stop: exit %d: %s", code, stderr)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
