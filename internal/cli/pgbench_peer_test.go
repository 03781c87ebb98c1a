package cli

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPgbenchAgainstPgbench runs the same command lines with the real
// pgbench 15 and with dbgauge pgbench on one private PostgreSQL: the
// exit codes are equal, the reports have the same lines with the same
// labels (only the numbers differ), a -t run processes exactly clients x
// transactions in both, -r prints a line per command, the first -P line
// has pgbench's shape, and the run directory holds the percentiles.
func TestPgbenchAgainstPgbench(t *testing.T) {
	inst := pgbenchPostgres(t)
	dir := t.TempDir()
	a := writeScript(t, dir, "a.sql", "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n")
	b := writeScript(t, dir, "b.sql", "\\set bid random(1, :scale)\nBEGIN;\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = :bid;\nEND;\n")
	bad := writeScript(t, dir, "bad.sql", "SELECT 1;\nSELECT 1/0;\n")
	for _, c := range []struct {
		args []string
		// processed is the "processed" line of a -t run ("" for -T).
		processed string
		code      int
	}{
		{[]string{"-t", "10", "-c", "2"}, "20/20", 0},
		{[]string{"-n", "-t", "20", "-c", "2", "-j", "2", "-r"}, "40/40", 0},
		{[]string{"-n", "-T", "1", "-c", "2", "-r", "-S"}, "", 0},
		{[]string{"-n", "-t", "30", "-f", a + "@2", "-f", b + "@1", "-b", "select-only@3", "-r"}, "30/30", 0},
		{[]string{"-n", "-t", "20", "-M", "prepared", "-r", "-N"}, "20/20", 0},
		{[]string{"-n", "-t", "10", "-c", "3", "-f", b, "--max-tries", "3", "--failures-detailed", "-r"}, "30/30", 0},
		{[]string{"-n", "-T", "2", "-c", "2", "-R", "300", "-L", "1", "-P", "1", "-f", a + "@1", "-f", b + "@1", "--max-tries", "2", "-r"}, "", 0},
		{[]string{"-n", "-t", "5", "-C", "-M", "extended", "-f", a}, "5/5", 0},
		{[]string{"-n", "-t", "3", "-c", "2", "-f", bad, "-r"}, "0/6", 2},
	} {
		name := strings.ReplaceAll(strings.Join(c.args, " "), dir+"/", "")
		t.Run(name, func(t *testing.T) {
			args := append(slices.Clone(c.args), inst.URL)
			pcode, pout, perr := peerPgbench(t, args...)
			code, out, errs, rundir := ourPgbench(t, args...)
			if pcode != c.code || code != c.code {
				t.Fatalf("exit: pgbench %d, dbgauge %d, want %d\npgbench:\n%s%s\ndbgauge:\n%s%s", pcode, code, c.code, pout, perr, out, errs)
			}
			want, got := reportShape(t, pout), reportShape(t, out)
			if !slices.Equal(want, got) {
				t.Errorf("report lines differ\npgbench:\n%s\ndbgauge:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			if c.processed != "" {
				wantLine := "number of transactions actually processed: " + c.processed
				if processedLine(pout) != wantLine || processedLine(out) != wantLine {
					t.Errorf("processed: pgbench %q, dbgauge %q, want %q", processedLine(pout), processedLine(out), wantLine)
				}
			}
			if slices.Contains(c.args, "-P") {
				if w, g := firstProgress(perr), firstProgress(errs); w == "" || reportNumber.ReplaceAllString(w, "#") != reportNumber.ReplaceAllString(g, "#") {
					t.Errorf("first -P line: pgbench %q, dbgauge %q", w, g)
				}
			}
			if c.code == 0 {
				if _, err := os.Stat(filepath.Join(rundir, "percentiles.txt")); err != nil {
					t.Errorf("run directory: %v", err)
				}
			}
		})
	}
}

// TestPgbenchHostPortUser: pgbench's -h, -p, -U and a plain database name
// (the password from PGPASSWORD) reach the same server for both tools.
func TestPgbenchHostPortUser(t *testing.T) {
	inst := pgbenchPostgres(t)
	u, err := url.Parse(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	t.Setenv("PGPASSWORD", pw)
	args := []string{"-n", "-S", "-t", "5", "-h", u.Hostname(), "-p", u.Port(), "-U", u.User.Username(), strings.TrimPrefix(u.Path, "/")}
	pcode, pout, perr := peerPgbench(t, args...)
	code, out, errs, _ := ourPgbench(t, args...)
	want := "number of transactions actually processed: 5/5"
	if pcode != 0 || code != 0 || processedLine(pout) != want || processedLine(out) != want {
		t.Errorf("pgbench exit %d %q, dbgauge exit %d %q\n%s%s", pcode, processedLine(pout), code, processedLine(out), perr, errs)
	}
}

func firstProgress(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "progress: ") {
			return l
		}
	}
	return ""
}

// TestPgbenchEmbedded runs -i and then pgbench's built-in scripts with -t
// on SQLite and DuckDB: exactly clients x transactions processed, a -r
// line per command, per-command percentiles in results.json.
func TestPgbenchEmbedded(t *testing.T) {
	for _, engine := range []string{"sqlite", "duckdb"} {
		t.Run(engine, func(t *testing.T) {
			url := fmt.Sprintf("%s:%s", engine, filepath.Join(t.TempDir(), "bench.db"))
			if code, out, errs, _ := ourPgbench(t, "-i", "-q", url); code != 0 {
				t.Fatalf("-i: exit %d\n%s%s", code, out, errs)
			}
			for _, c := range []struct {
				args     []string
				commands int
			}{
				// Two clients update one branch: DuckDB's optimistic
				// transactions conflict, and are retried.
				{[]string{"-c", "2", "-t", "15", "-r", "--max-tries", "100"}, 11},
				{[]string{"-n", "-c", "3", "-t", "10", "-S", "-M", "prepared", "-r"}, 2},
				{[]string{"-n", "-c", "1", "-t", "10", "-N", "-M", "extended", "-r"}, 9},
			} {
				code, out, errs, dir := ourPgbench(t, append(c.args, url)...)
				if code != 0 {
					t.Fatalf("%v: exit %d\n%s%s", c.args, code, out, errs)
				}
				clients, each := c.args[slices.Index(c.args, "-c")+1], c.args[slices.Index(c.args, "-t")+1]
				n := atoi(t, clients) * atoi(t, each)
				if want := fmt.Sprintf("number of transactions actually processed: %d/%d", n, n); processedLine(out) != want {
					t.Errorf("%v: %q, want %q", c.args, processedLine(out), want)
				}
				if got := strings.Count(out, "\n   "); got != c.commands {
					t.Errorf("%v: %d per-command lines, want %d:\n%s", c.args, got, c.commands, out)
				}
				res := readPgbenchResults(t, dir)
				if len(res.Types) != 1 || len(res.Types[0].Statements) != c.commands || res.Types[0].Count != int64(n) {
					t.Errorf("%v: results.json types %+v", c.args, res.Types)
				}
				// The clients' CPU: some, and per transaction that part of it.
				if res.ClientCPUS <= 0 || math.Abs(res.ClientCPUPerTxUS-1e6*res.ClientCPUS/float64(n)) > 1e-6*res.ClientCPUPerTxUS {
					t.Errorf("%v: client CPU %g s, %g us per transaction of %d", c.args, res.ClientCPUS, res.ClientCPUPerTxUS, n)
				}
			}
		})
	}
}

// TestPgbenchServerEngines runs -i and the built-in scripts with -t on
// private MariaDB and Firebird servers, one at a time: exactly clients x
// transactions processed (retried where two clients conflict) and a -r
// line per command.
func TestPgbenchServerEngines(t *testing.T) {
	for _, engine := range []string{"mariadb", "firebird"} {
		t.Run(engine, func(t *testing.T) {
			inst := servertest.Start(t, engine, server.Options{})
			if code, out, errs, _ := ourPgbench(t, "-i", "-q", inst.URL); code != 0 {
				t.Fatalf("-i: exit %d\n%s%s", code, out, errs)
			}
			for _, c := range []struct {
				args     []string
				commands int
			}{
				{[]string{"-c", "2", "-t", "10", "-r", "--max-tries", "100"}, 11},
				{[]string{"-n", "-c", "2", "-t", "10", "-S", "-M", "prepared", "-r"}, 2},
			} {
				code, out, errs, _ := ourPgbench(t, append(c.args, inst.URL)...)
				if code != 0 {
					t.Fatalf("%v: exit %d\n%s%s", c.args, code, out, errs)
				}
				if want := "number of transactions actually processed: 20/20"; processedLine(out) != want {
					t.Errorf("%v: %q, want %q", c.args, processedLine(out), want)
				}
				if got := strings.Count(out, "\n   "); got != c.commands {
					t.Errorf("%v: %d per-command lines, want %d:\n%s", c.args, got, c.commands, out)
				}
			}
		})
	}
}

// TestPgbenchBadCommandLines gives the real pgbench and dbgauge pgbench
// the same bad command lines (002's, with a database whose server is not
// there): both exit with the same status, and write nothing on standard
// output.
func TestPgbenchBadCommandLines(t *testing.T) {
	closed, _ := server.FreePort()
	db := fmt.Sprintf("postgres://bench@127.0.0.1:%d/bench", closed)
	dir := t.TempDir()
	for _, c := range noServerCases {
		args := strings.Fields(c.args)
		for name, body := range c.files {
			args = append(args, "-f", writeScript(t, dir, name, body))
		}
		args = append(args, db)
		pcode, pout, perr := peerPgbench(t, args...)
		code, out, errs, _ := ourPgbench(t, args...)
		if pcode != code || pout != "" || out != "" {
			t.Errorf("%s: pgbench exit %d, dbgauge %d (stdout %q, %q)\npgbench: %sdbgauge: %s", c.name, pcode, code, pout, out, perr, errs)
		}
	}
}

// TestPgbenchVariantsAndPipes: a -f file's per-engine variant beside it
// (NAME.ENGINE.EXT) is what runs on that engine, and a script read from a
// pipe is read once, as pgbench reads it.
func TestPgbenchVariantsAndPipes(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "bench.db")
	// The main script would fail on SQLite (no such table); its variant runs.
	main := writeScript(t, dir, "v.sql", "SELECT 1 FROM only_on_other_engines;\n")
	writeScript(t, dir, "v.sqlite.sql", "SELECT 1;\n")
	code, out, errs, _ := ourPgbench(t, "-n", "-t", "3", "-f", main, url)
	if code != 0 || processedLine(out) != "number of transactions actually processed: 3/3" {
		t.Errorf("variant: exit %d, %q\n%s%s", code, processedLine(out), out, errs)
	}
	fifo := filepath.Join(dir, "pipe.sql")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("SELECT 2;\n")
		f.Close()
	}()
	code, out, errs, _ = ourPgbench(t, "-n", "-t", "2", "-f", fifo, url)
	if code != 0 || processedLine(out) != "number of transactions actually processed: 2/2" {
		t.Errorf("pipe: exit %d, %q\n%s%s", code, processedLine(out), out, errs)
	}
}
