package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// The fault matrix's rows for the server of a load command: the server
// killed (kill -9) or restarted while a cycle runs, against a private
// PostgreSQL, the real binary run as a user's shell would run it.
//
// The rule: a run that does not retry ends with exit code 1, keeps what it
// measured (the population, the finished cycles), says complete: false
// with the fault in words, and `dbgauge report DIR` renders it with the
// fault on the page. A run under --retry --reconnect waits the fault out
// (the server started again) and completes, with the fault visible in
// results.json and on the page.

// serverFault is what a row does to the server once the run is under way.
type serverFault func(ctx context.Context, inst *server.Instance) error

var (
	// killServer is kill -9 of the server, which stays down.
	killServer serverFault = func(ctx context.Context, inst *server.Instance) error { return inst.Kill() }
	// killAndStart is kill -9, then the server started again a second
	// later (crash recovery included).
	killAndStart serverFault = func(ctx context.Context, inst *server.Instance) error {
		if err := inst.Kill(); err != nil {
			return err
		}
		return inst.RestartAfter(ctx, time.Second)
	}
	// restartServer is a fast stop and a start 0.3 s later: an
	// operator's restart.
	restartServer serverFault = func(ctx context.Context, inst *server.Instance) error {
		return inst.RestartAfter(ctx, 300*time.Millisecond)
	}
)

// faultWords is how a fault of the server reads in an error: the words a
// user looks for.
var faultWords = regexp.MustCompile(`connection refused|connection lost|lost the connection|terminat|shut ?down|unexpected EOF|gave up|server`)

// incompleteWords is how a page says the run did not complete.
var incompleteWords = regexp.MustCompile(`(?i)the run did not complete|the run is incomplete`)

// loadFaultResults is what the rows read of results.json.
type loadFaultResults struct {
	Complete bool   `json:"complete"`
	Error    string `json:"error"`
	Scales   []struct {
		Scale      int64            `json:"scale"`
		PopulateS  float64          `json:"populate_s"`
		Cycles     []float64        `json:"cycles"`
		Consistent bool             `json:"consistent"`
		Errors     map[string]int64 `json:"errors"`
		Faults     []struct {
			Cycle  int              `json:"cycle"`
			Errors map[string]int64 `json:"errors"`
		} `json:"faults"`
	} `json:"scales"`
	Runs []struct {
		Users int `json:"users"`
		Rep   int `json:"rep"`
	} `json:"runs"`
	Retried []struct {
		Users int    `json:"users"`
		Rep   int    `json:"rep"`
		Class string `json:"class"`
	} `json:"retried"`
	Pauses []struct {
		Unit    string `json:"unit"`
		Outcome string `json:"outcome"`
		Fault   string `json:"fault"`
	} `json:"pauses"`
}

// loadFaultRow is one row of TestLoadServerFaults: the command, the line
// after which (and settle later) the fault strikes the server, and what
// the run must have done.
type loadFaultRow struct {
	name   string
	args   func(url, out string) []string
	ready  func(line string) bool
	settle time.Duration
	fault  serverFault
	check  func(t *testing.T, dir string, code int, res loadFaultResults, stderr string)
}

func TestLoadServerFaults(t *testing.T) {
	dsbench := func(url, out string, extra ...string) []string {
		return append([]string{"dsbench", "--db", url, "--scales", "1", "--cycles", "3", "--duration", "4s", "--threads", "2", "--out", out}, extra...)
	}
	// The script workload's sweep: a user's scripts written beside the run.
	scripted := func(url, out string, extra ...string) []string {
		scripts, err := writeUserScripts(filepath.Dir(out))
		if err != nil {
			t.Fatal(err)
		}
		return dsbench(url, out, append(extra, scripts...)...)
	}
	// The end of cycle 1 (its line), then a second and a half into cycle 2.
	inCycle2 := func(line string) bool { return strings.Contains(line, "cycle  1/3") }
	// Repetitions of about a second each: after the first, the fault
	// comes while the four users of the next one run.
	multiuser := func(url, out string, extra ...string) []string {
		return append([]string{"multiuser", "--db", url, "--users", "1,4", "--tuples", "10000", "--retrieves", "3000", "--reps", "3", "--out", out}, extra...)
	}
	afterRep1 := func(line string) bool { return strings.Contains(line, "users   1  repetition 1/3") }
	rows := []loadFaultRow{
		{
			name:  "dsbench/kill-9",
			args:  func(url, out string) []string { return dsbench(url, out) },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: killServer,
			check: keptCycle1,
		},
		{
			name: "dsbench/kill-9/retry+reconnect/give-up",
			args: func(url, out string) []string {
				return dsbench(url, out, "--retry", "--reconnect", "--backoff-cap", "200ms", "--give-up", "2s")
			},
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: killServer,
			check: func(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
				failedRun(t, dir, code, res, stderr)
				if !strings.Contains(res.Error, "gave up after") {
					t.Errorf("error %q: want it to say the run gave up, and after how long", res.Error)
				}
				if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 1 {
					t.Errorf("scales %+v: want the population and cycle 1 kept", res.Scales)
				}
			},
		},
		{
			name:  "dsbench/kill-9+start/retry+reconnect",
			args:  func(url, out string) []string { return dsbench(url, out, "--retry", "--reconnect") },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: killAndStart,
			check: survivedSweep,
		},
		{
			name:  "dsbench/restart/retry+reconnect",
			args:  func(url, out string) []string { return dsbench(url, out, "--retry", "--reconnect") },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: restartServer,
			check: survivedSweep,
		},
		{
			name:  "dsbench script/kill-9",
			args:  func(url, out string) []string { return scripted(url, out) },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: killServer,
			check: keptCycle1,
		},
		{
			// The driver's retry reruns a script from its start, after
			// the session is replaced.
			name:  "dsbench script/restart/retry+reconnect",
			args:  func(url, out string) []string { return scripted(url, out, "--retry", "--reconnect") },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: restartServer,
			check: survivedSweep,
		},
		{
			// The order-entry workload: a server killed mid-cycle keeps
			// cycle 1; restarted, the retried transactions leave every
			// condition holding (the check after the scale's last cycle).
			name:  "dsbench orders/kill-9",
			args:  func(url, out string) []string { return dsbench(url, out, "--workload", "orders") },
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: killServer,
			check: keptCycle1,
		},
		{
			name: "dsbench orders/restart/retry+reconnect",
			args: func(url, out string) []string {
				return dsbench(url, out, "--workload", "orders", "--retry", "--reconnect")
			},
			ready: inCycle2, settle: 1500 * time.Millisecond, fault: restartServer,
			check: survivedSweep,
		},
		{
			name:  "multiuser/kill-9",
			args:  func(url, out string) []string { return multiuser(url, out) },
			ready: afterRep1, settle: 300 * time.Millisecond, fault: killServer,
			check: func(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
				failedRun(t, dir, code, res, stderr)
				if len(res.Runs) == 0 || len(res.Runs) >= 6 {
					t.Errorf("%d measurements kept: want the first one(s), not all six", len(res.Runs))
				}
			},
		},
		{
			name:  "multiuser/kill-9+start/retry",
			args:  func(url, out string) []string { return multiuser(url, out, "--retry") },
			ready: afterRep1, settle: 300 * time.Millisecond, fault: killAndStart,
			check: survivedRepetitions,
		},
		{
			name:  "multiuser/restart/retry",
			args:  func(url, out string) []string { return multiuser(url, out, "--retry") },
			ready: afterRep1, settle: 300 * time.Millisecond, fault: restartServer,
			check: survivedRepetitions,
		},
	}
	for _, tc := range append(rows, timedQueryServerFaults()...) {
		t.Run(tc.name, func(t *testing.T) {
			inst := servertest.Start(t, "postgres", server.Options{})
			out := filepath.Join(t.TempDir(), "run")
			code, stderr := runWithFault(t, tc.args(inst.URL, out), inst, tc.ready, tc.settle, tc.fault)
			var res loadFaultResults
			b, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatalf("no results.json (exit %d): %v\n%s", code, err, stderr)
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			// The page is rendered again from the stored run (as months
			// later), and that page is the one checked.
			os.Remove(filepath.Join(out, "report.html"))
			regen := exec.Command(os.Args[0], "report", out)
			regen.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
			if b, err := regen.CombinedOutput(); err != nil {
				t.Errorf("dbgauge report %s: %v\n%s", out, err, b)
			}
			tc.check(t, out, code, res, stderr)
		})
	}
}

// runWithFault runs dbgauge with args, waits until a line of its stderr
// satisfies ready, waits settle more, applies fault to the server, and
// returns the exit code and stderr once dbgauge has ended (failing the
// test if it has not within five minutes: it would hang).
func runWithFault(t *testing.T, args []string, inst *server.Instance, ready func(string) bool, settle time.Duration, fault serverFault) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var stderr strings.Builder
	faulted := make(chan error, 1)
	started := false
	for l := range lines {
		stderr.WriteString(l + "\n")
		if ready(l) {
			started = true
			go func() {
				time.Sleep(settle)
				faulted <- fault(context.Background(), inst)
			}()
			break
		}
	}
	done := make(chan error, 1)
	go func() {
		for l := range lines {
			stderr.WriteString(l + "\n")
		}
		done <- cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("dbgauge %s did not end; stderr so far:\n%s", strings.Join(args, " "), stderr.String())
	}
	if !started {
		t.Fatalf("dbgauge ended before the fault; stderr:\n%s", stderr.String())
	}
	if ferr := <-faulted; ferr != nil {
		t.Fatalf("fault: %v", ferr)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// failedRun: the run failed as a run (exit 1, not the bad-input 2), says
// so in results.json with the fault in words, on its last stderr line and
// on its page.
func failedRun(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	if code != ExitFailure {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitFailure, stderr)
	}
	if res.Complete || !faultWords.MatchString(res.Error) {
		t.Errorf("results.json: complete %v, error %q: want the fault in words", res.Complete, res.Error)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; !faultWords.MatchString(last) {
		t.Errorf("last line %q: want the fault named", last)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !incompleteWords.Match(page) || !faultWords.Match(page) {
		t.Errorf("report.html (%v): want it to say the run did not complete and why", err)
	}
}

// survivedSweep: a sweep under --retry --reconnect went through the fault:
// exit 0, every cycle kept with commits, consistent, and the fault shows
// in results.json (failed trials of a connection class in a cycle) and on
// the page.
// keptCycle1: a sweep whose server was killed in cycle 2 failed, keeping
// its population (or init) and cycle 1, the interrupted cycle not stored.
func keptCycle1(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	failedRun(t, dir, code, res, stderr)
	if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 1 {
		t.Errorf("scales %+v: want the population and cycle 1 kept, the interrupted cycle 2 not stored", res.Scales)
	}
}

func survivedSweep(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	if code != ExitOK || !res.Complete {
		t.Fatalf("exit %d, complete %v, error %q; stderr:\n%s", code, res.Complete, res.Error, stderr)
	}
	if len(res.Scales) != 1 {
		t.Fatalf("%d scales, want 1", len(res.Scales))
	}
	s := res.Scales[0]
	if !s.Consistent || len(s.Cycles) != 3 {
		t.Errorf("scale 1: consistent %v, %d cycles: want all 3 and consistent", s.Consistent, len(s.Cycles))
	}
	for i, tps := range s.Cycles {
		if tps <= 0 {
			t.Errorf("cycle %d committed nothing", i+1)
		}
	}
	transient := 0
	for _, f := range s.Faults {
		for class := range f.Errors {
			if class != "serialization" && class != "deadlock" && class != "timeout" && class != "other" {
				transient++
			}
		}
	}
	if transient == 0 {
		t.Errorf("faults %+v: the server's fault does not show in results.json", s.Faults)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "Faults of the connection and the server") {
		t.Errorf("report.html (%v): want the faults section", err)
	}
}

// survivedRepetitions: multiuser under --retry went through the fault:
// exit 0, all six measurements, and the one the fault cut short listed
// (with a class of the connection or the server) in results.json, never
// among the results, and on the page.
func survivedRepetitions(t *testing.T, dir string, code int, res loadFaultResults, stderr string) {
	t.Helper()
	if code != ExitOK || !res.Complete {
		t.Fatalf("exit %d, complete %v, error %q; stderr:\n%s", code, res.Complete, res.Error, stderr)
	}
	if len(res.Runs) != 6 {
		t.Errorf("%d measurements, want 2 user counts x 3 repetitions", len(res.Runs))
	}
	if len(res.Retried) == 0 {
		t.Fatalf("no measurement cut short: the fault does not show in results.json")
	}
	for _, r := range res.Retried {
		if r.Class == "" || r.Class == "other" {
			t.Errorf("cut short %+v: want the fault's class", r)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(page), "cut short by a fault of the connection or the server") {
		t.Errorf("report.html (%v): want the measurement cut short named", err)
	}
}
