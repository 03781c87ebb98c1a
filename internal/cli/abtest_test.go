package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runABTest runs the abtest command itself (the lead registers it in the
// root command) and returns the error Run would turn into an exit code.
func runABTest(args ...string) (stdout string, err error) {
	var o, e bytes.Buffer
	cmd := commands["abtest"](&o, &e)
	cmd.SetArgs(args)
	cmd.SetOut(&o)
	cmd.SetErr(&e)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(flagError) // as the root gives its commands
	err = cmd.ExecuteContext(context.Background())
	return o.String(), err
}

// Bad input: a usage error (exit code 2) naming the problem, nothing written.
func TestABTestBadInput(t *testing.T) {
	tmp := t.TempDir()
	empty := writeFile(t, tmp, "empty.sql", "-- nothing\n\n")
	pg := "postgres://u@127.0.0.1:1/db"
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no variants", nil, "give the two variants"},
		{"same variant", []string{"--a-session", "SET x = 1", "--b-session", "SET x = 1"}, "same variant"},
		{"statement without --db", []string{"--a", "SET x = 1", "--b", "SET x = 2"}, "is not an engine URL"},
		{"typo in a URL", []string{"--a", "postgress://h/db", "--b", pg}, "is not an engine URL"},
		{"one URL only", []string{"--a", pg, "--b-session", "SET x = 1"}, "only one variant has a URL"},
		{"two URLs for A", []string{"--a", pg, "--a", "sqlite:/tmp/x.db", "--b", pg}, "two URLs"},
		{"reps too few", []string{"--a-session", "SET x = 1", "--reps", "2"}, "at least 3 pairs"},
		{"bad cache", []string{"--a-session", "SET x = 1", "--cache", "hot"}, "give warm, cold or both"},
		{"bad dest", []string{"--a-session", "SET x = 1", "--dest", "file"}, "give client, count or relation"},
		{"update query", []string{"--a-session", "SET x = 1", "--wisconsin", "9,27"}, "query 27 is an update"},
		{"unknown query", []string{"--a-session", "SET x = 1", "--wisconsin", "40"}, "1-32"},
		{"two sizes", []string{"--a-session", "SET x = 1", "--size", "1000,2000"}, "one size"},
		{"size too small", []string{"--a-session", "SET x = 1", "--size", "10"}, "--size"},
		{"sql and wisconsin", []string{"--a-session", "SET x = 1", "--sql", empty, "--wisconsin", "9"}, "give one workload"},
		{"empty sql file", []string{"--a-session", "SET x = 1", "--sql", empty}, "no query"},
		{"missing sql file", []string{"--a-session", "SET x = 1", "--sql", filepath.Join(tmp, "nope.sql")}, "--sql"},
		{"bad level", []string{"--a-session", "SET x = 1", "--level", "95"}, "between 0 and 1"},
		{"server with two URLs", []string{"--a", pg, "--b", "postgres://u@127.0.0.1:2/db", "--server", tmp}, "two servers"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			_, err := runABTest(append(c.args, "--out", out)...)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v: want one usage line containing %q", err, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written on bad input", out)
			}
		})
	}
}

// The issue's own form: with --db, --a/--b values that are not engine URLs
// are session statements, and --a-session adds to them.
func TestABTestVariants(t *testing.T) {
	f := newABTestFlags()
	parseFlags(t, f.bind, "--db", "postgres://u@127.0.0.1:5432/db", "--a", "SET max_parallel_workers_per_gather = 0",
		"--b", "SET max_parallel_workers_per_gather=2", "--b-session", "SET jit = off", "--reps", "5", "--cache", "both")
	p, err := f.plan()
	db, _ := f.target()
	if err != nil {
		t.Fatal(err)
	}
	if db != f.db || p.A.URL != "" || p.B.URL != "" {
		t.Errorf("db %q, A URL %q, B URL %q", db, p.A.URL, p.B.URL)
	}
	if !slices.Equal(p.A.Session, []string{"SET max_parallel_workers_per_gather = 0"}) ||
		!slices.Equal(p.B.Session, []string{"SET max_parallel_workers_per_gather=2", "SET jit = off"}) {
		t.Errorf("sessions A %q B %q", p.A.Session, p.B.Session)
	}
	if !slices.Equal(p.Wisconsin, []int{9, 10, 11, 12, 13, 14, 15, 16, 17}) || p.Size != 10000 || !slices.Equal(p.Caches, []string{"warm", "cold"}) {
		t.Errorf("defaults: queries %v size %d caches %v", p.Wisconsin, p.Size, p.Caches)
	}
	// Two URLs; a URL given to --a with --db overrides it for A only.
	f = newABTestFlags()
	parseFlags(t, f.bind, "--db", "sqlite:/tmp/base.db", "--a", "sqlite:/tmp/other.db", "--reps", "3", "--dest", "count", "--level", "0.9")
	if p, err = f.plan(); err != nil || p.A.URL != "sqlite:/tmp/other.db" || p.B.URL != "" {
		t.Errorf("A overrides --db: %v %+v %+v", err, p.A, p.B)
	}
	// A password in a variant's URL is hidden in the manifest.
	args := redactArgs([]string{"dbgauge", "abtest", "--a", "postgres://u:secret@h/db", "--b=postgres://u:secret@h2/db"})
	cfg := redactConfig(map[string]any{"a": []string{"postgres://u:secret@h/db"}, "b": []string{"postgres://u:secret@h2/db"}})
	if strings.Contains(strings.Join(args, " "), "secret") || strings.Contains(strings.Join(cfg["a"].([]string), " "), "secret") {
		t.Errorf("password kept: %v %v", args, cfg)
	}
}

// The whole command on the embedded SQLite: two page-cache settings, one
// query file, the run directory written.
func TestABTestCommand(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	stdout, err := runABTest("--a-session", "PRAGMA cache_size = -1000", "--b-session", "PRAGMA cache_size = -8000",
		"--wisconsin", "9,12", "--size", "1000", "--reps", "3", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"A/B comparison", "Q9", "Q12", "warm_verdict", out} {
		if !strings.Contains(stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, stdout)
		}
	}
	for _, f := range []string{"results.json", "abtest.txt", "abtest.csv", "abtest.svg", "abtest.png", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
