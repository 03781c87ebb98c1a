package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// peerPgbench runs the installed pgbench 15 with args in the C locale.
func peerPgbench(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(servertest.Pgbench(t), args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("pgbench: %v", err)
	}
	return code, o.String(), e.String()
}

var pgbenchRuns atomic.Int64

// ourPgbench runs dbgauge pgbench in-process with args, its run directory
// a new one under a temporary directory (returned).
func ourPgbench(t *testing.T, args ...string) (code int, stdout, stderr, dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), fmt.Sprintf("run%d", pgbenchRuns.Add(1)))
	t.Setenv(envPgbenchOut, dir)
	code, stdout, stderr = run(append([]string{"pgbench"}, args...)...)
	return code, stdout, stderr, dir
}

// pgbenchPostgres starts a private PostgreSQL with pgbench's tables at
// scale 1, made by the real pgbench -i.
func pgbenchPostgres(t *testing.T) *server.Instance {
	t.Helper()
	inst := servertest.Start(t, "postgres", server.Options{})
	if code, out, errs := peerPgbench(t, "-i", "-q", inst.URL); code != 0 {
		t.Fatalf("pgbench -i: exit %d\n%s%s", code, out, errs)
	}
	return inst
}

var reportNumber = regexp.MustCompile(`-?\d+(\.\d+)?(e[+-]\d+)?|NaN|-?Infinity`)

// reportShape is a report's lines after pgbench's version line, each
// number replaced by #: the text two runs share when only their
// measurements differ.
func reportShape(t *testing.T, stdout string) []string {
	t.Helper()
	first, rest, _ := strings.Cut(stdout, "\n")
	if !strings.HasPrefix(first, "pgbench (") {
		t.Fatalf("output does not start with pgbench's version line:\n%s", stdout)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(rest, "\n"), "\n") {
		out = append(out, reportNumber.ReplaceAllString(l, "#"))
	}
	return out
}

// processedLine is the report's "number of transactions actually
// processed" line.
func processedLine(stdout string) string {
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "number of transactions actually processed:") {
			return l
		}
	}
	return ""
}

// writeScript writes a script file under dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// execSQL runs statements on url.
func execSQL(t *testing.T, url string, stmts ...string) {
	t.Helper()
	onEngine(t, url, func(ctx context.Context, e dbms.Engine) {
		for _, s := range stmts {
			if _, err := e.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	})
}

// queryRows runs a query on url.
func queryRows(t *testing.T, url, q string) (rows [][]string) {
	t.Helper()
	onEngine(t, url, func(ctx context.Context, e dbms.Engine) {
		var err error
		if rows, err = e.QueryRows(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	})
	return rows
}

// onEngine calls f with a session on url.
func onEngine(t *testing.T, url string, f func(context.Context, dbms.Engine)) {
	t.Helper()
	ctx := context.Background()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f(ctx, e)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readPgbenchResults reads a dbgauge pgbench run's results.json.
func readPgbenchResults(t *testing.T, dir string) *results.PgbenchResults {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, results.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var r results.PgbenchResults
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}
