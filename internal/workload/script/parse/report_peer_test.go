package parse

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestTextIsPgbenchReportText runs a script with pgbench -r on a private
// PostgreSQL and checks that its per-command report names the commands in
// our order with our Command.Text: the report of a pgbench-compatible run
// is built from it.
func TestTextIsPgbenchReportText(t *testing.T) {
	pgbench := lookPgbench(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	script := strings.Join([]string{
		"-- a comment line",
		"\\set a random(1, 10)",
		"\\SET b :a + 1",
		"  SELECT :a AS x,",
		"         :b AS y \\gset p_",
		"\\sleep 0 ms",
		"\\if :p_x > 5",
		"SELECT 1 \\; SELECT 2;",
		"\\elif :p_y > 100",
		"SELECT 3;",
		"\\else",
		"SELECT " + strings.Repeat("1 + ", 40) + "1 AS long_line;",
		"\\endif",
		"\\shell true",
		"\\setshell c echo 7",
		"BEGIN; SELECT :c; END;",
	}, "\n") + "\n"
	s := mustParse(t, script)
	f := filepath.Join(t.TempDir(), "r.sql")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pgbench, "-n", "-t", "1", "-r", "-f", f, inst.URL)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pgbench: %v\n%s", err, out)
	}
	// The report's lines after its header: latency, failures (and retries
	// with --max-tries), then the command's text.
	line := regexp.MustCompile(`^\s+-?\d+\.\d+(?:\s+\d+)+ (.*)$`)
	var got []string
	in := false
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "statement latencies") {
			in = true
			continue
		}
		if m := line.FindStringSubmatch(l); in && m != nil {
			got = append(got, strings.TrimLeft(m[1], " "))
		}
	}
	var want []string
	for _, c := range s.Commands {
		want = append(want, strings.TrimLeft(c.Text, " "))
	}
	if len(got) != len(s.Commands) || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pgbench -r names the commands\n%s\nwe have\n%s\n(pgbench's output:\n%s)", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
}
