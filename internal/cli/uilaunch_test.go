package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/ui"
)

// dbgaugeBinary builds dbgauge into a temporary directory: the interface
// launches its runs as this binary, as dbgauge ui launches itself.
func dbgaugeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dbgauge")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/dbgauge/dbgauge/cmd/dbgauge").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return bin
}

// launchedRun is the address a launch redirects to: the run's live page.
func launchedRun(experiment string) *regexp.Regexp {
	return regexp.MustCompile(`^/runs/(\d{8}T\d{6}Z-` + experiment + `(-\d+)?)/live$`)
}

// launch posts the experiment's form with pairs of flag name and value
// and returns the run directory the run was launched into (relative to
// the directory of runs).
func launch(t *testing.T, h http.Handler, experiment string, pairs ...string) string {
	t.Helper()
	got := postForm(h, "/new/"+experiment, formOf(csrfOf(t, h, experiment), pairs...))
	m := launchedRun(experiment).FindStringSubmatch(got.hdr.Get("Location"))
	if got.code != http.StatusSeeOther || m == nil {
		t.Fatalf("launching %s %v: status %d, location %q\n%s", experiment, pairs, got.code, got.hdr.Get("Location"), got.body)
	}
	return m[1]
}

// jobsShot keeps a screenshot of h's jobs page as the artifact name.
func jobsShot(t *testing.T, h http.Handler, name string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := browsertest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/jobs"), chromedp.WaitVisible(chromedp.CSS(`table`))); err != nil {
		t.Fatalf("the jobs page: %v", err)
	}
	browsertest.Screenshot(t, ctx, name)
}

// jobRunning tells whether the launched run rel goes on.
func jobRunning(h *ui.Handler, rel string) bool {
	for _, j := range h.Jobs() {
		if j.Rel == rel {
			return j.Running()
		}
	}
	return false
}

// waitJob waits for the launched run rel to end (a bound, not a
// measurement: the runs here take seconds) and returns it.
func waitJob(t *testing.T, h *ui.Handler, rel string) ui.Job {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, j := range h.Jobs() {
			if j.Rel == rel && !j.Running() {
				return j
			}
		}
	}
	t.Fatalf("%s did not end within 5 minutes: %+v", rel, h.Jobs())
	return ui.Job{}
}

// reaped checks that the ended child pid is gone, not a zombie: the
// interface waited for it.
func reaped(t *testing.T, pid int) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil && strings.Contains(string(b), ") Z ") {
		t.Errorf("the ended child %d is a zombie: %s", pid, b)
	}
}

// TestFormLaunchesRuns launches runs from the forms as child processes
// of the interface (the dbgauge binary, built here): a short SQLite
// sweep that completes, a run whose engine refuses it at once (exit 2:
// its one line on the jobs page, no run directory left), and the
// Wisconsin benchmark launched from the page and from the command line,
// whose results differ only in times.
func TestFormLaunchesRuns(t *testing.T) {
	bin := dbgaugeBinary(t)

	t.Run("dsbench-completes", func(t *testing.T) {
		h, dir := formUI(t, bin, false)
		rel := launch(t, h, "dsbench", "scales", "1", "cycles", "2", "duration", "1s", "threads", "2")
		j := waitJob(t, h, rel)
		if j.ExitCode != 0 {
			t.Fatalf("the run ended with exit code %d:\n%s", j.ExitCode, strings.Join(j.Lines, "\n"))
		}
		reaped(t, j.Pid)
		res := readJSON[results.DSBenchResults](t, filepath.Join(dir, rel, results.ResultsFile))
		if !res.Complete || len(res.Scales) != 1 || len(res.Scales[0].Cycles) != 2 {
			t.Errorf("results.json: complete %v, error %q, %d scales", res.Complete, res.Error, len(res.Scales))
		}
		want := fmt.Sprintf("dbgauge dsbench --scales=1 --cycles=2 --duration=1s --threads=2 --out %s", filepath.Join(dir, rel))
		if j.Command != want {
			t.Errorf("the job's command is %q, want %q", j.Command, want)
		}
		page := getPage(h, "/jobs")
		for _, s := range []string{rel, "exit code 0", want} {
			if !strings.Contains(page.body, s) {
				t.Errorf("the jobs page does not show %q:\n%s", s, page.body)
			}
		}
		jobsShot(t, h, "ui-jobs.png")
	})

	t.Run("engine-refuses", func(t *testing.T) {
		h, dir := formUI(t, bin, false)
		port, err := server.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		db := fmt.Sprintf("postgres://u:s3cret@127.0.0.1:%d/x", port)
		rel := launch(t, h, "dsbench", "db", db, "scales", "1")
		j := waitJob(t, h, rel)
		code, _, stderr := run("dsbench", "--db", db, "--scales", "1", "--out", filepath.Join(t.TempDir(), "cli"))
		line := strings.TrimSpace(stderr)
		if code != ExitBadInput || j.ExitCode != ExitBadInput || len(j.Lines) != 1 || j.Lines[0] != line {
			t.Errorf("the child: exit %d, lines %q; the command line: exit %d, %q (want 2 and the same one line)", j.ExitCode, j.Lines, code, line)
		}
		if page := getPage(h, "/jobs"); !strings.Contains(page.body, line) || !strings.Contains(page.body, "exit code 2") || strings.Contains(page.body, "s3cret") {
			t.Errorf("the jobs page does not show the line and exit code 2, or shows the password:\n%s", page.body)
		}
		reaped(t, j.Pid)
		if left := entries(t, dir); len(left) != 0 {
			t.Errorf("the refused run left %v in the directory of runs", left)
		}
		jobsShot(t, h, "ui-jobs-refused.png")
	})

	t.Run("same-as-command-line", func(t *testing.T) {
		h, dir := formUI(t, bin, false)
		// engine-time is a checkbox ticked by default: a browser posts it
		// (an unticked one is not posted, and means false).
		flags := []string{"size", "1000", "reps", "2", "engine-time", "true"}
		rel := launch(t, h, "wisconsin", flags...)
		if j := waitJob(t, h, rel); j.ExitCode != 0 {
			t.Fatalf("the launched run: exit code %d\n%s", j.ExitCode, strings.Join(j.Lines, "\n"))
		}
		page := filepath.Join(dir, rel)
		cliRun := func(extra ...string) string {
			out := filepath.Join(t.TempDir(), "cli")
			args := []string{"wisconsin", "--size", "1000", "--reps", "2", "--out", out}
			if code, stdout, stderr := run(append(args, extra...)...); code != 0 {
				t.Fatalf("%v: exit %d\n%s\n%s", args, code, stdout, stderr)
			}
			return out
		}
		cli := cliRun()
		if diff := sameButTimes(t, filepath.Join(page, results.ResultsFile), filepath.Join(cli, results.ResultsFile)); diff != "" {
			t.Errorf("results.json of the page's run and the command line's differ beyond times:\n%s", diff)
		}
		mp := readJSON[results.Manifest](t, filepath.Join(page, "manifest.json"))
		mc := readJSON[results.Manifest](t, filepath.Join(cli, "manifest.json"))
		if mp.Config["out"] != page || mc.Config["out"] != cli {
			t.Errorf("--out in the manifests: %v and %v, want %s and %s", mp.Config["out"], mc.Config["out"], page, cli)
		}
		delete(mp.Config, "out")
		delete(mc.Config, "out")
		if a, b := fmt.Sprint(mp.Config), fmt.Sprint(mc.Config); a != b {
			t.Errorf("the effective configurations differ beyond --out:\npage: %s\ncli:  %s", a, b)
		}
		// The comparison can fail: one flag changed on one side is seen.
		other := cliRun("--seed", "2")
		if diff := sameButTimes(t, filepath.Join(page, results.ResultsFile), filepath.Join(other, results.ResultsFile)); !strings.Contains(diff, "seed: 1 | 2") {
			t.Errorf("--seed 2 on one side is not seen as a difference; the diff:\n%s", diff)
		}
	})
}

// uiProcess is a dbgauge ui started as the binary over a directory of
// runs, on a free loopback port.
type uiProcess struct {
	cmd    *exec.Cmd
	addr   string // http://127.0.0.1:PORT
	stderr *strings.Builder
	ended  chan struct{} // closed once exit is set
	exit   error
}

func startUI(t *testing.T, bin, dir string) *uiProcess {
	t.Helper()
	p := &uiProcess{cmd: exec.Command(bin, "ui", "--listen", "127.0.0.1:0", "--dir", dir), stderr: &strings.Builder{}, ended: make(chan struct{})}
	printed := &addrLine{ch: make(chan string, 1)}
	p.cmd.Stdout, p.cmd.Stderr = printed, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exit = p.cmd.Wait(); close(p.ended) }()
	t.Cleanup(func() {
		select {
		case <-p.ended:
		default:
			p.cmd.Process.Kill()
			<-p.ended
		}
	})
	select {
	case first := <-printed.ch:
		p.addr = regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(first)
		if p.addr == "" {
			t.Fatalf("dbgauge ui printed %q", first)
		}
	case <-p.ended:
		t.Fatalf("dbgauge ui ended: %v\n%s", p.exit, p.stderr.String())
	}
	return p
}

// uiClient follows no redirect: a launch's answer is the redirect.
var uiClient = &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// bodies is a reader of responses' bodies that fails t on an error.
func bodies(t *testing.T) func(*http.Response, error) string {
	return func(resp *http.Response, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
}

// TestUIRunsOutliveIt starts dbgauge ui (the binary), launches a sweep
// of one minute-long cycle from its form over HTTP, and kills the
// interface (SIGKILL) once the cycle runs: the run is in a session of its
// own and goes on. A new dbgauge ui over the same directory shows it
// running (jobs, history, live page); that one's Ctrl-C leaves it going
// too, and a third one aborts it from its live page: the run ends as an
// abort ends it, keeping the population it measured, storing no
// interrupted cycle, its report written.
func TestUIRunsOutliveIt(t *testing.T) {
	bin := dbgaugeBinary(t)
	dir := t.TempDir()
	bodyOf := bodies(t)
	ui1 := startUI(t, bin, dir)
	m := csrfField.FindStringSubmatch(bodyOf(uiClient.Get(ui1.addr + "/new/dsbench")))
	if m == nil {
		t.Fatal("the form carries no csrf field")
	}
	resp, err := uiClient.PostForm(ui1.addr+"/new/dsbench", formOf(m[1], "mode", "select", "scales", "1", "cycles", "1", "duration", "60s", "threads", "2"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := launchedRun("dsbench").FindStringSubmatch(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || loc == nil {
		t.Fatalf("launching: status %d, location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	rel := loc[1]
	// The cycle runs once its progress line says so (as in
	// TestSignalsStopLoad); the jobs page shows the child's last lines.
	var pid int
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		page := bodyOf(uiClient.Get(ui1.addr + "/jobs"))
		if strings.Contains(page, "cycle 1/1") && strings.Contains(page, "committed") {
			m := regexp.MustCompile(`(?s)` + rel + `</a>.*?<td>(\d+)</td>`).FindStringSubmatch(page)
			if m == nil {
				t.Fatalf("the jobs page shows no pid of %s:\n%s", rel, page)
			}
			pid, _ = strconv.Atoi(m[1])
			break
		}
		if time.Now().After(deadline) || !strings.Contains(page, "running") {
			t.Fatalf("the cycle did not start:\n%s", page)
		}
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) // if the test fails midway
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); f[3] != strconv.Itoa(pid) {
		t.Errorf("the run (pid %d) is in session %s, not one of its own", pid, f[3])
	}

	ui1.cmd.Process.Kill()
	<-ui1.ended
	ui2 := startUI(t, bin, dir)
	jobs := bodyOf(uiClient.Get(ui2.addr + "/jobs"))
	if !strings.Contains(jobs, rel) || !strings.Contains(jobs, "running") || !strings.Contains(jobs, "cycle 1/1") {
		t.Fatalf("the new interface does not show the run going on:\n%s", jobs)
	}
	if page := bodyOf(uiClient.Get(ui2.addr + "/")); !strings.Contains(page, "/runs/"+rel+"/live") {
		t.Errorf("the history does not link the run's live page:\n%s", page)
	}
	ui2.cmd.Process.Signal(os.Interrupt)
	<-ui2.ended
	if ui2.exit != nil || !strings.Contains(ui2.stderr.String(), rel+" (pid "+strconv.Itoa(pid)+") goes on") {
		t.Errorf("dbgauge ui after Ctrl-C: %v, said %q", ui2.exit, ui2.stderr.String())
	}

	ui3 := startUI(t, bin, dir)
	live := bodyOf(uiClient.Get(ui3.addr + "/runs/" + rel + "/live"))
	m = csrfField.FindStringSubmatch(live)
	if m == nil || !strings.Contains(live, `data-running="true"`) {
		t.Fatalf("the live page does not show the run running with its buttons:\n%s", live)
	}
	if answer := bodyOf(uiClient.PostForm(ui3.addr+"/runs/"+rel+"/control", url.Values{"csrf": {m[1]}, "action": {"abort"}})); !strings.Contains(answer, "asked the run to abort now") {
		t.Fatalf("the abort: %q", answer)
	}
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		page := bodyOf(uiClient.Get(ui3.addr + "/jobs"))
		if strings.Contains(page, "exit code not known") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the aborted run does not end:\n%s", page)
		}
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(dir, rel, results.ResultsFile))
	if res.Complete || !strings.Contains(res.Error, "aborted") {
		t.Errorf("results.json: complete %v, error %q: want the abort named", res.Complete, res.Error)
	}
	if len(res.Scales) != 1 || res.Scales[0].PopulateS <= 0 || len(res.Scales[0].Cycles) != 0 {
		t.Errorf("results.json: want scale 1's population kept and no interrupted cycle, got %d scales", len(res.Scales))
	}
	if _, err := os.Stat(filepath.Join(dir, rel, "report.html")); err != nil {
		t.Errorf("the aborted run was not finished as the command line finishes it: %v", err)
	}
}

// addrLine passes on the first line written to it (dbgauge ui's
// address) and takes the rest.
type addrLine struct {
	buf  []byte
	ch   chan string
	sent bool
}

func (f *addrLine) Write(b []byte) (int, error) {
	if !f.sent {
		f.buf = append(f.buf, b...)
		if i := bytes.IndexByte(f.buf, '\n'); i >= 0 {
			f.ch <- string(f.buf[:i])
			f.sent = true
		}
	}
	return len(b), nil
}

// sameButTimes compares two results.json files with their time-valued
// fields blanked and returns the differences, one "path: a | b" a line
// ("" when there are none).
func sameButTimes(t *testing.T, a, b string) string {
	t.Helper()
	fa, fb := flatten(t, a), flatten(t, b)
	var diff []string
	for k, va := range fa {
		if vb, ok := fb[k]; !ok || va != vb {
			diff = append(diff, fmt.Sprintf("%s: %s | %s", k, va, vb))
		}
	}
	for k, vb := range fb {
		if _, ok := fa[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s: (none) | %s", k, vb))
		}
	}
	slices.Sort(diff)
	return strings.Join(diff, "\n")
}

// timeValued are the fields of a Wisconsin results.json that hold a
// measured time or what is computed from measured times only, by path
// ([] for any index). Everything else in the file (the plan's sizes,
// repetitions, cache, seed, the queries' classes, organisations,
// destinations, expected and returned row counts, statuses, the number
// of samples, the loads' row counts, the buffer ratios and warnings, the
// engine and its version) comes from the flags, the seed and the
// engine, and must be equal. results.json holds no path.
var timeValued = map[string]bool{
	"loads[].seconds":             true, // load time of a relation
	"loads[].generation_seconds":  true, // time to generate its rows
	"loads[].rows_per_second":     true, // rows / seconds
	"organize[].seconds":          true, // time to build an organisation's indices
	"queries[].elapsed_ms.median": true,
	"queries[].elapsed_ms.mean":   true,
	"queries[].elapsed_ms.min":    true,
	"queries[].elapsed_ms.max":    true,
	"queries[].elapsed_ms.stddev": true,
	"queries[].samples_ms[]":      true, // each repetition's time (their number stays)
}

var index = regexp.MustCompile(`\[\d+\]`)

// flatten reads a JSON file into its leaves, path to value, the
// time-valued ones blanked.
func flatten(t *testing.T, path string) map[string]string {
	t.Helper()
	var v any
	loadJSON(t, path, &v)
	out := map[string]string{}
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(strings.TrimPrefix(p+"."+k, "."), e)
			}
		case []any:
			out[p+".len"] = fmt.Sprint(len(x))
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", p, i), e)
			}
		default:
			if timeValued[index.ReplaceAllString(p, "[]")] {
				x = "(time)"
			}
			out[p] = fmt.Sprint(x)
		}
	}
	walk("", v)
	return out
}
