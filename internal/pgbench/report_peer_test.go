package pgbench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestReportAgainstPgbench runs the installed pgbench 15 on a private
// PostgreSQL with short runs that exercise every part of its report,
// reads the figures out of its report and progress lines, and requires
// Report and ProgressLine to print those figures as the identical text.
func TestReportAgainstPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	if out, err := pgbenchCmd(pgbench, "-i", "-s", "1", "-q", inst.URL).CombinedOutput(); err != nil {
		t.Fatalf("pgbench -i: %v\n%s", err, out)
	}
	dir := t.TempDir()
	a, b, bad := filepath.Join(dir, "a.sql"), filepath.Join(dir, "b.sql"), filepath.Join(dir, "bad.sql")
	write(t, a, "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n")
	write(t, b, "\\set bid random(1, :scale)\nBEGIN;\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = :bid;\nEND;\n")
	write(t, bad, "SELECT 1;\nSELECT 1/0;\n")
	// Four clients updating one row under REPEATABLE READ fail with
	// serialization errors: retried, and some fail for good.
	conflict := filepath.Join(dir, "conflict.sql")
	write(t, conflict, "BEGIN ISOLATION LEVEL REPEATABLE READ;\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;\nSELECT pg_sleep(0.001);\nEND;\n")
	var retried, failed int64
	// A database whose accounts pgbench partitioned: the report says so.
	parted := dbURL(t, inst.URL, "parted", 0)
	createDB(t, inst.URL, parted)
	if out, err := pgbenchCmd(pgbench, "-i", "-s", "1", "-q", "--partitions", "3", "--partition-method", "hash", parted).CombinedOutput(); err != nil {
		t.Fatalf("pgbench -i --partitions: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"-n", "-t", "20", "-c", "2", "-j", "2"},
		{"-n", "-T", "1", "-c", "2", "-r", "-S"},
		{"-n", "-t", "30", "-f", a + "@2", "-f", b + "@1", "-b", "select-only@3", "-r"},
		{"-n", "-t", "20", "-M", "prepared", "-r", "-N"},
		{"-n", "-t", "20", "-c", "3", "-f", b, "--max-tries", "3", "--failures-detailed", "-r"},
		{"-n", "-T", "2", "-c", "2", "-R", "300", "-L", "1", "-P", "1", "-f", a + "@1", "-f", b + "@1", "--max-tries", "2", "-r"},
		{"-n", "-t", "5", "-C", "-M", "extended", "-f", a},
		{"-n", "-T", "1", "-S", "--max-tries", "0", "-P", "1", "--progress-timestamp"},
		{"-n", "-t", "3", "-c", "2", "-f", bad, "-r"},
		{"-n", "-t", "40", "-c", "4", "-j", "2", "-f", conflict + "@2", "-b", "select@1", "--max-tries", "2", "--failures-detailed", "-r"},
		{"-n", "-T", "2", "-c", "4", "-f", conflict, "-r", "-P", "1"},
		{"-n", "-t", "10", "-S", "-r", "{parted}"},
	} {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+"/", ""), func(t *testing.T) {
			if args[len(args)-1] == "{parted}" {
				args = append(args[:len(args)-1:len(args)-1], parted)
			} else {
				args = append(args, inst.URL)
			}
			cmd := pgbenchCmd(pgbench, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			o, err := Parse(args, nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			report := afterVersion(t, stdout.String(), runErr, stderr.String())
			f := NewFigures(o)
			if err := readFigures(f, report); err != nil {
				t.Fatalf("%v in pgbench's report:\n%s", err, report)
			}
			var got bytes.Buffer
			if err := Report(&got, f); err != nil {
				t.Fatal(err)
			}
			if got.String() != report {
				t.Errorf("Report differs from pgbench's.\npgbench:\n%s\nReport:\n%s", report, got.String())
			}
			checkProgress(t, o, stderr.String())
			retried += f.Total.Retried
			failed += f.Total.Failures()
		})
	}
	if retried == 0 || failed == 0 {
		t.Errorf("no run had retried (%d) and failed (%d) transactions: those lines were not compared", retried, failed)
	}
}

func pgbenchCmd(pgbench string, args ...string) *exec.Cmd {
	cmd := exec.Command(pgbench, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

// afterVersion is pgbench's standard output after its first line,
// "pgbench (15.x ...)". A run whose clients aborted exits 2 and still
// reports.
func afterVersion(t *testing.T, out string, runErr error, stderr string) string {
	t.Helper()
	if runErr != nil && !strings.Contains(stderr, "aborted") {
		t.Fatalf("pgbench: %v\n%s%s", runErr, out, stderr)
	}
	first, rest, ok := strings.Cut(out, "\n")
	if !ok || !strings.HasPrefix(first, "pgbench (") {
		t.Fatalf("pgbench's output does not start with its version:\n%s", out)
	}
	return rest
}

var (
	cmdLine1 = regexp.MustCompile(`^   ( *-?[0-9.]+|NaN|Infinity)  ( *\d+)  (.*)$`)
	cmdLine2 = regexp.MustCompile(`^   ( *-?[0-9.]+|NaN|Infinity)  ( *\d+)  ( *\d+)  (.*)$`)
)

// readFigures fills f's measured figures from the text of pgbench's
// report (its settings come from the command line, through NewFigures).
func readFigures(f *Figures, report string) error {
	var (
		sc   *ScriptFigures
		cmdN int
		err  error
	)
	if len(f.Scripts) == 1 {
		sc = &f.Scripts[0]
	}
	num := func(s string) int64 {
		n, e := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if e != nil && err == nil {
			err = fmt.Errorf("number %q: %v", s, e)
		}
		return n
	}
	flt := func(s string) float64 {
		v, e := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if e != nil && err == nil {
			err = fmt.Errorf("number %q: %v", s, e)
		}
		return v
	}
	field := func(line, prefix string) (string, bool) {
		if !strings.HasPrefix(line, prefix) {
			return "", false
		}
		v := strings.TrimPrefix(line, prefix)
		if i := strings.IndexAny(v, " /"); i >= 0 {
			v = v[:i]
		}
		return v, true
	}
	for _, line := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
		c := &f.Total
		in := line
		if sc != nil && strings.HasPrefix(line, " - ") {
			c, in = &sc.Counts, strings.TrimPrefix(line, " - ")
		}
		var v string
		var ok bool
		switch {
		case strings.HasPrefix(line, "partition method: "):
			f.PartitionMethod = strings.TrimPrefix(line, "partition method: ")
		case strings.HasPrefix(line, "partitions: "):
			f.Partitions = int(num(strings.TrimPrefix(line, "partitions: ")))
		case strings.HasPrefix(line, "scaling factor: "):
			f.Scale = int(num(strings.TrimPrefix(line, "scaling factor: ")))
		case strings.HasPrefix(line, "SQL script "):
			i := int(num(strings.Fields(line)[2][:len(strings.Fields(line)[2])-1])) - 1
			sc, cmdN = &f.Scripts[i], 0
		case func() bool { v, ok = field(line, "number of transactions actually processed: "); return ok }():
			c.Processed = num(v)
		case func() bool { v, ok = field(in, "number of failed transactions: "); return ok }():
			if !f.FailuresDetailed {
				c.SerializationFailures = num(v)
			}
		case func() bool { v, ok = field(in, "number of serialization failures: "); return ok }():
			c.SerializationFailures = num(v)
		case func() bool { v, ok = field(in, "number of deadlock failures: "); return ok }():
			c.DeadlockFailures = num(v)
		case func() bool { v, ok = field(in, "number of transactions retried: "); return ok }():
			c.Retried = num(v)
		case func() bool { v, ok = field(in, "total number of retries: "); return ok }():
			c.Retries = num(v)
		case func() bool { v, ok = field(in, "number of transactions skipped: "); return ok }():
			c.Skipped = num(v)
		case strings.HasPrefix(line, "number of transactions above the "):
			late := strings.Fields(strings.SplitN(line, ": ", 2)[1])[0]
			f.LatencyLate = num(strings.SplitN(late, "/", 2)[0])
		case func() bool { v, ok = field(line, "latency average = "); return ok }():
			f.LatencyAverage = flt(v)
		case func() bool { v, ok = field(line, "latency stddev = "); return ok }():
			f.LatencyStddev = flt(v)
		case func() bool { v, ok = field(line, " - latency average = "); return ok }():
			sc.LatencyAverage = flt(v)
		case func() bool { v, ok = field(line, " - latency stddev = "); return ok }():
			sc.LatencyStddev = flt(v)
		case strings.HasPrefix(line, "rate limit schedule lag: avg "):
			fs := strings.Fields(line)
			f.LagAverage, f.LagMax = flt(fs[5]), flt(strings.TrimSuffix(fs[7], ")"))
		case func() bool { v, ok = field(line, "initial connection time = "); return ok }():
			f.ConnectionTime = flt(v)
		case func() bool { v, ok = field(line, "average connection time = "); return ok }():
			f.ConnectionTime = flt(v)
		case func() bool { v, ok = field(line, "tps = "); return ok }():
			f.TPS = flt(v)
		case strings.HasPrefix(line, " - ") && strings.Contains(line, " transactions ("):
			sc.Processed = num(strings.Fields(line)[1])
			sc.TPS = flt(strings.TrimSuffix(strings.Fields(line)[len(strings.Fields(line))-1], ")"))
		case strings.HasPrefix(line, "   "):
			if sc == nil || cmdN >= len(sc.Commands) {
				return fmt.Errorf("a command line beyond the script's commands: %q", line)
			}
			cmd := &sc.Commands[cmdN]
			if m := cmdLine2.FindStringSubmatch(line); f.MaxTries != 1 && m != nil {
				cmd.LatencyAverage, cmd.Failures, cmd.Retries = flt(m[1]), num(m[2]), num(m[3])
				if m[4] != cmd.Text {
					return fmt.Errorf("command %d is %q, pgbench says %q", cmdN+1, cmd.Text, m[4])
				}
			} else if m := cmdLine1.FindStringSubmatch(line); f.MaxTries == 1 && m != nil {
				cmd.LatencyAverage, cmd.Failures = flt(m[1]), num(m[2])
				if m[3] != cmd.Text {
					return fmt.Errorf("command %d is %q, pgbench says %q", cmdN+1, cmd.Text, m[3])
				}
			} else {
				return fmt.Errorf("unreadable command line %q", line)
			}
			cmdN++
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var progressRE = regexp.MustCompile(`^progress: ([0-9.]+) s, ([0-9.]+|NaN|Infinity) tps, lat ([0-9.]+|NaN) ms stddev ([0-9.]+|NaN), (\d+) failed(?:, lag ([0-9.]+) ms)?(?:, (\d+) skipped)?(?:, (\d+) retried, (\d+) retries)?$`)

// checkProgress reads pgbench's -P lines and requires ProgressLine to
// print each one again from its figures.
func checkProgress(t *testing.T, o *Options, stderr string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, "progress: ") {
			continue
		}
		m := progressRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("unreadable progress line %q", line)
			continue
		}
		n++
		f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		i := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
		g := ProgressFigures{
			TPS: f(m[2]), LatencyAverage: f(m[3]), LatencyStddev: f(m[4]), Failed: i(m[5]),
			Lag: f(m[6]), Skipped: i(m[7]), Retried: i(m[8]), Retries: i(m[9]),
			Rate: o.Rate > 0, LatencyLimit: o.LatencyLimit > 0, MaxTries: o.MaxTries,
			Timestamp: o.ProgressTimestamp,
		}
		if g.Timestamp {
			g.Now = time.UnixMicro(int64(f(m[1]) * 1e6))
		} else {
			g.Elapsed = time.Duration(f(m[1]) * float64(time.Second))
		}
		var b bytes.Buffer
		if err := ProgressLine(&b, g); err != nil {
			t.Fatal(err)
		}
		if b.String() != line+"\n" {
			t.Errorf("progress line differs:\npgbench:      %q\nProgressLine: %q", line, b.String())
		}
	}
	if o.Progress > 0 && n == 0 {
		t.Errorf("pgbench -P printed no progress line:\n%s", stderr)
	}
}
