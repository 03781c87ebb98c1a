package pgbench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// outcome is what a command line leads to before any connection.
type outcome string

const (
	runs    outcome = "runs"    // accepted: goes on to connect
	info    outcome = "info"    // prints something and exits 0
	refused outcome = "refused" // refused before connecting
)

// cmdCase is one command line. "{DB}" stands for the database URL (added
// at the end when absent), {good}, {bad} and {missing} for script files.
// unsupported: pgbench runs it, dbgauge pgbench refuses it on purpose.
type cmdCase struct {
	args        []string
	pgbench     outcome
	unsupported bool
	// says is what the refusal of an unsupported line says ("dbgauge
	// pgbench" when empty).
	says string
	env  string // PGBENCH_RANDOM_SEED
}

var cmdCases = []cmdCase{
	{args: []string{"-c4", "-j2", "-T", "5"}, pgbench: runs},
	{args: []string{"-c", "4", "-t", "10"}, pgbench: runs},
	{args: []string{"--client=4", "--jobs", "2"}, pgbench: runs},
	{args: []string{"--cli=4", "--transa", "3"}, pgbench: runs},
	{args: []string{"-nS", "-c2"}, pgbench: runs},
	{args: []string{"-nc4"}, pgbench: runs},
	{args: []string{"-S", "-N", "-b", "tpcb@3"}, pgbench: runs},
	{args: []string{"-b", "simple@0", "-b", "select@2"}, pgbench: runs},
	{args: []string{"-f", "{good}@5", "-f", "{good}", "--file={good}@2"}, pgbench: runs},
	{args: []string{"-M", "prepared", "-f", "{good}"}, pgbench: runs},
	{args: []string{"-Mextended"}, pgbench: runs},
	{args: []string{"-R", "100", "-L", "5", "-T", "2"}, pgbench: runs},
	{args: []string{"-L", "5.5"}, pgbench: runs},
	{args: []string{"-L", "5abc"}, pgbench: runs},
	{args: []string{"-R", "1e3"}, pgbench: runs},
	{args: []string{"-R", "0x10"}, pgbench: runs},
	{args: []string{"--rate=inf"}, pgbench: runs},
	{args: []string{"--max-tries", "0", "-T", "3"}, pgbench: runs},
	{args: []string{"--max-tries", "0", "-L", "10"}, pgbench: runs},
	{args: []string{"--max-tries=3"}, pgbench: runs},
	{args: []string{"--max-tries", "abc", "-T", "1"}, pgbench: runs},
	{args: []string{"-D", "foo=bar", "-D", "x=1=2"}, pgbench: runs},
	{args: []string{"-r", "-P", "1", "--progress-timestamp"}, pgbench: runs},
	{args: []string{"-c", "8", "-j", "16"}, pgbench: runs},
	{args: []string{"-s", "5", "-S"}, pgbench: runs},
	{args: []string{"-v", "-C", "-d"}, pgbench: runs},
	{args: []string{"--random-seed", "42"}, pgbench: runs},
	{args: []string{"--random-seed", "time"}, pgbench: runs},
	{args: []string{"--random-seed=rand"}, pgbench: runs},
	{args: []string{"--random-seed", " 7"}, pgbench: runs},
	{args: []string{"--random-seed", "-1"}, pgbench: runs},
	{args: []string{"-c", " 4 ", "-t", "2\t"}, pgbench: runs},
	{args: []string{"-i", "-s", "2", "-F", "90", "-I", "dtg", "--foreign-keys", "--unlogged-tables", "-q"}, pgbench: runs},
	{args: []string{"-i", "-I", " dt gGvpf"}, pgbench: runs},
	{args: []string{"-i", "-n", "--partitions", "0"}, pgbench: runs},
	{args: []string{"-in"}, pgbench: runs},
	{args: []string{"{DB}", "-c", "2"}, pgbench: runs},
	{args: []string{"-c", "2", "--", "{DB}"}, pgbench: runs},
	{args: []string{"--failures-detailed", "--verbose-errors"}, pgbench: runs},
	{args: []string{"-T", "10", "--aggregate-interval", "5", "-l"}, pgbench: runs, unsupported: true},
	{args: []string{"-l", "--sampling-rate", "0.5"}, pgbench: runs, unsupported: true},
	{args: []string{"-i", "--partitions", "4"}, pgbench: runs, unsupported: true},
	{args: []string{"-i", "--partitions", "4", "--partition-method", "HASH"}, pgbench: runs, unsupported: true},
	{args: []string{"-i", "--tablespace", "ts"}, pgbench: runs, unsupported: true},
	{args: []string{"-R", "nan"}, pgbench: runs, unsupported: true},
	{args: []string{"-M", "prepared", "-f", "{undef}"}, pgbench: runs, unsupported: true, says: "nosuch"},
	{args: []string{"-D", "nosuch=1", "-M", "extended", "-f", "{undef}"}, pgbench: runs},
	{args: []string{"-f", "{undef}"}, pgbench: runs},
	{args: []string{"-M", "prepared", "-f", "{many}"}, pgbench: refused},
	{args: []string{"-f", "{many}"}, pgbench: runs},
	{args: []string{"-f", "-"}, pgbench: refused},
	{args: []string{"-L", "NaN(1)"}, pgbench: runs, unsupported: true},
	{args: []string{"-t", "3"}, pgbench: runs, env: "12345"},

	{args: []string{"--max-tries=3x"}, pgbench: runs},
	{args: []string{"-L", " 5"}, pgbench: runs},
	{args: []string{"--rat", "5"}, pgbench: runs},
	{args: []string{"--deb"}, pgbench: runs},
	{args: []string{"-j", "2", "-c", "1"}, pgbench: runs},
	{args: []string{"-qi"}, pgbench: runs},
	{args: []string{"-T", "1", "--aggregate-interval", "1", "-l"}, pgbench: runs, unsupported: true},
	{args: []string{"-c=4"}, pgbench: refused},
	{args: []string{"--s", "1"}, pgbench: refused},
	{args: []string{"--r"}, pgbench: refused},
	{args: []string{"--ra", "5"}, pgbench: refused},
	{args: []string{"--de"}, pgbench: refused},
	{args: []string{"--help", "-c", "2"}, pgbench: info},
	{args: []string{"-c", "2", "--help"}, pgbench: refused},
	{args: []string{"-c", "2", "-V"}, pgbench: refused},
	{args: []string{"-b", "list@1"}, pgbench: refused},
	{args: []string{"-i", "-f", "{missing}"}, pgbench: refused},
	{args: []string{"-T", "5", "-t", "10"}, pgbench: refused},
	{args: []string{"-c", "0"}, pgbench: refused},
	{args: []string{"-c", "abc"}, pgbench: refused},
	{args: []string{"-c", "4x"}, pgbench: refused},
	{args: []string{"-c", ""}, pgbench: refused},
	{args: []string{"-c", "99999999999"}, pgbench: refused},
	{args: []string{"-j", "0"}, pgbench: refused},
	{args: []string{"-T", "-1"}, pgbench: refused},
	{args: []string{"-L", "0"}, pgbench: refused},
	{args: []string{"-L", "abc"}, pgbench: refused},
	{args: []string{"-R", "0"}, pgbench: refused},
	{args: []string{"-R", "-5"}, pgbench: refused},
	{args: []string{"--max-tries", "0"}, pgbench: refused},
	{args: []string{"--max-tries", "-1", "-T", "1"}, pgbench: refused},
	{args: []string{"-M", "foo"}, pgbench: refused},
	{args: []string{"-b", "nosuch"}, pgbench: refused},
	{args: []string{"-b", "s"}, pgbench: refused},
	{args: []string{"-f", "{good}@x"}, pgbench: refused},
	{args: []string{"-f", "{good}@-1"}, pgbench: refused},
	{args: []string{"-f", "{missing}"}, pgbench: refused},
	{args: []string{"-f", "{bad}"}, pgbench: refused},
	{args: []string{"-b", "tpcb@0"}, pgbench: refused},
	{args: []string{"-i", "-c", "4"}, pgbench: refused},
	{args: []string{"-i", "-S"}, pgbench: refused},
	{args: []string{"-F", "90"}, pgbench: refused},
	{args: []string{"--foreign-keys", "-t", "1"}, pgbench: refused},
	{args: []string{"-i", "-F", "5"}, pgbench: refused},
	{args: []string{"-i", "-I", "dtx"}, pgbench: refused},
	{args: []string{"-i", "-I", ""}, pgbench: refused},
	{args: []string{"-i", "--partition-method", "hash"}, pgbench: refused},
	{args: []string{"-i", "--partitions", "2", "--partition-method", "list"}, pgbench: refused},
	{args: []string{"--progress-timestamp"}, pgbench: refused},
	{args: []string{"--sampling-rate", "0.5"}, pgbench: refused},
	{args: []string{"-l", "--sampling-rate", "2"}, pgbench: refused},
	{args: []string{"--log-prefix", "x"}, pgbench: refused},
	{args: []string{"--aggregate-interval", "5"}, pgbench: refused},
	{args: []string{"-l", "-T", "10", "--aggregate-interval", "3"}, pgbench: refused},
	{args: []string{"-D", "foo"}, pgbench: refused},
	{args: []string{"-D", "=x"}, pgbench: refused},
	{args: []string{"-D", "x="}, pgbench: refused},
	{args: []string{"-D", "1x=2"}, pgbench: refused},
	{args: []string{"--random-seed", "abc"}, pgbench: refused},
	{args: []string{"--random-seed", "5 "}, pgbench: refused},
	{args: []string{"--random-seed", "0x10"}, pgbench: refused},
	{args: []string{"--pro", "1"}, pgbench: refused},
	{args: []string{"--nosuch"}, pgbench: refused},
	{args: []string{"-Z"}, pgbench: refused},
	{args: []string{"--connect=1"}, pgbench: refused},
	{args: []string{"-P", "0"}, pgbench: refused},
	{args: []string{"-s", "0"}, pgbench: refused},
	{args: []string{"{DB}", "extra"}, pgbench: refused},
	{args: []string{"-t", "3"}, pgbench: refused, env: "abc"},
	{args: []string{"{DB}", "-c"}, pgbench: refused},

	{args: []string{"-b", "list"}, pgbench: info},
	{args: []string{"--show-script", "select-only"}, pgbench: info},
	{args: []string{"--show-script", "nosuch"}, pgbench: refused},
	{args: []string{"--help"}, pgbench: info},
	{args: []string{"-V"}, pgbench: info},
}

// TestCommandLinesAgainstPgbench gives every command line of cmdCases to
// the installed pgbench 15, pointed at a socket directory that does not
// exist, and to Parse: pgbench's outcome must be the table's, and Parse
// must agree with it (refusing, with a line that says so, exactly the
// lines the table marks unsupported).
func TestCommandLinesAgainstPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	dir := t.TempDir()
	files := map[string]string{
		"{good}":    filepath.Join(dir, "good.sql"),
		"{bad}":     filepath.Join(dir, "bad.sql"),
		"{missing}": filepath.Join(dir, "missing.sql"),
		"{undef}":   filepath.Join(dir, "undef.sql"),
		"{many}":    filepath.Join(dir, "many.sql"),
	}
	write(t, files["{undef}"], "SELECT :nosuch;\n")
	var many []string
	for i := 0; i < 300; i++ {
		many = append(many, fmt.Sprintf(":v%d", i))
	}
	write(t, files["{many}"], "SELECT "+strings.Join(many, ", ")+";\n")
	write(t, files["{good}"], "\\set a random(1, 10)\nSELECT :a;\n")
	write(t, files["{bad}"], "\\set a 1 +\nSELECT 1;\n")
	db := "postgres://nobody@/db?host=" + filepath.Join(dir, "no-server")
	for _, c := range cmdCases {
		args := expand(c.args, files, db)
		name := strings.Join(c.args, " ")
		if c.env != "" {
			name = "PGBENCH_RANDOM_SEED=" + c.env + " " + name
		}
		t.Run(name, func(t *testing.T) {
			got, out := runPgbenchArgs(t, pgbench, args, c.env)
			if got != c.pgbench {
				t.Fatalf("pgbench: %s, the table says %s:\n%s", got, c.pgbench, out)
			}
			env := func(k string) string {
				if k == "PGBENCH_RANDOM_SEED" {
					return c.env
				}
				return ""
			}
			o, err := Parse(args, env)
			ours := runs
			switch {
			case err != nil:
				ours = refused
			case o.Mode != Run && o.Mode != Initialize:
				ours = info
			}
			want := c.pgbench
			if c.unsupported {
				want = refused
				says := c.says
				if says == "" {
					says = "dbgauge pgbench"
				}
				if err != nil && !strings.Contains(err.Error(), says) {
					t.Errorf("an unsupported option is refused without saying so: %v", err)
				}
			}
			if ours != want {
				t.Fatalf("Parse: %s (err %v), want %s; pgbench said:\n%s", ours, err, want, out)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the refusal is more than one line: %q", err)
			}
		})
	}
}

func expand(args []string, files map[string]string, db string) []string {
	var out []string
	hasDB := false
	for _, a := range args {
		if a == "{DB}" {
			hasDB = true
			a = db
		}
		for k, v := range files {
			a = strings.ReplaceAll(a, k, v)
		}
		out = append(out, a)
	}
	if !hasDB {
		out = append(out, db)
	}
	return out
}

// runPgbenchArgs runs pgbench with args and no PG* variable from the
// caller's environment, and says how it ended.
func runPgbenchArgs(t *testing.T, pgbench string, args []string, seedEnv string) (outcome, string) {
	t.Helper()
	cmd := exec.Command(pgbench, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "LC_") && !strings.HasPrefix(kv, "LANG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "LC_ALL=C")
	if seedEnv != "" {
		cmd.Env = append(cmd.Env, "PGBENCH_RANDOM_SEED="+seedEnv)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	switch {
	case err == nil:
		return info, out.String()
	case strings.Contains(out.String(), "connection to server"):
		return runs, out.String()
	}
	return refused, out.String()
}

func lookPgbench(t *testing.T) string { return servertest.Pgbench(t) }

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
