package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The fault matrix's rows for the server of the commands that time
// queries (wisconsin, qac, abtest, speedup) on a private PostgreSQL: the
// server killed (kill -9) or restarted while a query is timed. Without a
// way to wait the fault out the run ends: exit 1, the fault in words, the
// queries timed before it kept, the interrupted one never stored as a time.
// wisconsin and qac take --pause-on-error: the unit the fault cut short is
// measured again once the server answers, and the run completes with the
// pause recorded.

// timedQueryCommands are the four commands, each run long enough that a
// fault settle after ready lands in a query being timed, with something
// measured and kept before (qac keeps a Q@C whole or not at all: the fault
// comes in the second).
var timedQueryCommands = []struct {
	name   string
	args   []string
	ready  []string
	settle time.Duration
	// notKept, if set, checks that the unit the fault cut short is not
	// in results.json (qac keeps a Q@C whole or not at all; the fault may
	// strike between its QEs). Otherwise a measurement must be marked
	// failed or interrupted (marksFailedMeasurement).
	notKept func(t *testing.T, dir string)
}{
	{"wisconsin", []string{"wisconsin", "--size", "1000", "--org", "heap", "--queries", "1,2", "--reps", "2000"}, []string{"Q1 ", "median"}, 300 * time.Millisecond, nil},
	{"qac", []string{"qac", "--wisconsin", "2", "--cardinalities", "1000,2000", "--qe", "200"}, []string{"cardinality 2000 ", "QE  5/"}, 100 * time.Millisecond,
		func(t *testing.T, dir string) {
			var res struct {
				QaCs []struct {
					Cardinality int64 `json:"cardinality"`
				} `json:"qacs"`
			}
			loadJSON(t, filepath.Join(dir, "results.json"), &res)
			if len(res.QaCs) != 1 || res.QaCs[0].Cardinality != 1000 {
				t.Errorf("results.json Q@Cs %+v: want cardinality 1000's alone, 2000's cut short not kept", res.QaCs)
			}
		}},
	{"abtest", []string{"abtest", "--size", "5000", "--wisconsin", "9-11", "--reps", "300",
		"--a-session", "SET work_mem='1MB'", "--b-session", "SET work_mem='64MB'"}, []string{"Q9 ", "warm A", "A/B"}, 300 * time.Millisecond, nil},
	{"speedup", []string{"speedup", "--size", "5000", "--parallelism", "1,2", "--reps", "200"}, []string{"Q1 1% selection", "x=1 ", "median"}, 300 * time.Millisecond, nil},
}

func timedQueryServerFaults() []loadFaultRow {
	var rows []loadFaultRow
	for _, c := range timedQueryCommands {
		args := func(extra ...string) func(url, out string) []string {
			return func(url, out string) []string {
				return append(append(append([]string{}, c.args...), "--db", url, "--out", out), extra...)
			}
		}
		ready := func(line string) bool {
			for _, r := range c.ready {
				if !strings.Contains(line, r) {
					return false
				}
			}
			return true
		}
		failed := func(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
			t.Helper()
			failedTimedRun(t, dir, code, res, stderr)
			if c.notKept != nil {
				c.notKept(t, dir)
			} else if !marksFailedMeasurement(t, dir) {
				t.Errorf("results.json marks no measurement as cut short by the fault")
			}
		}
		rows = append(rows,
			loadFaultRow{name: c.name + "/kill-9", args: args(), ready: ready, settle: c.settle, fault: killServer, check: failed},
			loadFaultRow{name: c.name + "/restart", args: args(), ready: ready, settle: c.settle, fault: restartServer, check: failed})
		if c.name == "wisconsin" || c.name == "qac" {
			rows = append(rows,
				loadFaultRow{name: c.name + "/kill-9+start/pause-on-error", args: args("--pause-on-error"), ready: ready, settle: c.settle, fault: killAndStart, check: survivedPause},
				loadFaultRow{name: c.name + "/restart/pause-on-error", args: args("--pause-on-error"), ready: ready, settle: c.settle, fault: restartServer, check: survivedPause})
		}
	}
	return rows
}

// failedTimedRun: the run failed as a run (failedRun), kept the times
// measured before the fault, none of them an execution cut short, and left
// nothing half-written.
func failedTimedRun(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	failedRun(t, dir, code, res, stderr)
	if n := measuredTimes(t, dir); n == 0 {
		t.Errorf("results.json keeps no time measured before the fault")
	} else {
		t.Logf("exit %d, %d times kept, error %q", code, n, res.Error)
	}
	noHalfWritten(t, dir)
}

// marksFailedMeasurement tells whether the run records a measurement as
// failed or interrupted (a status, or an error of its own, below the run's
// error) in results.json.
func marksFailedMeasurement(t *testing.T, dir string) bool {
	t.Helper()
	var marked func(depth int, key string, v any) bool
	marked = func(depth int, key string, v any) bool {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if marked(depth+1, k, e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if marked(depth+1, key, e) {
					return true
				}
			}
		case string:
			switch key {
			case "status":
				return x == "error" || x == "interrupted"
			case "error", "Err":
				return depth > 1 && x != ""
			}
		}
		return false
	}
	var res any
	loadJSON(t, filepath.Join(dir, "results.json"), &res)
	return marked(0, "", res)
}

// survivedPause: under --pause-on-error the run waited the fault out:
// exit 0, complete, every time a finished execution, and the pause
// recorded as resolved with its fault, in results.json and on the page.
func survivedPause(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	if code != ExitOK || !res.Complete {
		t.Fatalf("exit %d, complete %v, error %q; stderr:\n%s", code, res.Complete, res.Error, stderr)
	}
	if len(res.Pauses) != 1 || res.Pauses[0].Outcome != "resolved" || res.Pauses[0].Fault == "" {
		t.Errorf("pauses %+v: want one resolved pause with its fault", res.Pauses)
	}
	if n := measuredTimes(t, dir); n == 0 {
		t.Errorf("results.json keeps no time")
	}
	noHalfWritten(t, dir)
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "resolved") {
		t.Errorf("the page does not show the pause (%v)", err)
	}
}
