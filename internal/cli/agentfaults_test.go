package cli

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// The fault matrix's rows for the load nodes of a distributed sweep
// (dsbench --nodes N --listen, dbgauge agent): an agent killed, stopped
// for longer or shorter than the loss, the master killed, an agent of
// another version, too few agents, an agent lost between scales. Master
// and agents are the real binary on 127.0.0.1 against a private
// PostgreSQL; each case starts its own. The rule (docs/faults.md): an agent silent for 3 s is missing, for 10 s
// lost; a loss ends the run keeping what was measured (exit 1, complete:
// false, the agent and the cycle named), or, under --tolerate-node-loss,
// the survivors go on and every cycle run without the lost agent is
// flagged; an agent whose master is silent for 10 s stops its load and
// exits.

// agentSweep is a master (dsbench --nodes --listen 127.0.0.1:0) with its
// agents, each with its own --dir.
type agentSweep struct {
	out, url string
	master   *proc
	agents   map[string]*proc
	dirs     map[string]string
}

// startAgentSweep starts the master of a sweep of scale 1 (three cycles
// of 2 s, two threads per node) on db for nodes agents, and one agent per
// name once the master says where it listens.
func startAgentSweep(t *testing.T, db string, nodes int, names []string, extra ...string) *agentSweep {
	t.Helper()
	tmp := t.TempDir()
	sw := &agentSweep{out: filepath.Join(tmp, "run"), agents: map[string]*proc{}, dirs: map[string]string{}}
	args := append([]string{"dsbench", "--db", db, "--nodes", strconv.Itoa(nodes), "--listen", "127.0.0.1:0",
		"--scales", "1", "--cycles", "3", "--duration", "2s", "--threads", "2", "--out", sw.out}, extra...)
	sw.master = startProc(t, "master", os.Args[0], args...)
	sw.url = sw.master.waitLine(`waiting up to .* agents at (nats://\S+)`)[1]
	for _, n := range names {
		sw.dirs[n] = filepath.Join(tmp, "agent-"+n)
		sw.agents[n] = startProc(t, "agent "+n, os.Args[0], "agent", "--master", sw.url, "--name", n, "--dir", sw.dirs[n])
	}
	return sw
}

// inCycle2 waits until the first cycle is merged and a second has passed:
// the second cycle is under way (or its start awaited), so a fault then
// strikes a cycle in progress.
func (sw *agentSweep) inCycle2() {
	sw.master.waitLine(`scale 1 +cycle +1/3`)
	time.Sleep(time.Second)
}

// succeeded waits for the master to end with exit 0 and for the agents
// that survived to end as it told them.
func (sw *agentSweep) succeeded(t *testing.T, survivors ...*proc) {
	t.Helper()
	if code := sw.master.wait(); code != ExitOK {
		t.Fatalf("master: exit %d, want 0; stderr:\n%s", code, sw.master.stderr())
	}
	for _, p := range survivors {
		survivorEnded(t, p)
	}
}

// results reads the master's results.json.
func (sw *agentSweep) results(t *testing.T) results.DSBenchResults {
	t.Helper()
	path := filepath.Join(sw.out, "results.json")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no results.json: %v; master's stderr:\n%s", err, sw.master.stderr())
	}
	return readJSON[results.DSBenchResults](t, path)
}

// agentInfo is the master's record of agent name.
func agentInfo(t *testing.T, res results.DSBenchResults, name string) results.AgentInfo {
	t.Helper()
	for _, a := range res.Agents {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("agents %+v: no agent %s", res.Agents, name)
	return results.AgentInfo{}
}

// cycleOf is the cycle an error names ("... scale 1 cycle 2 ...").
func cycleOf(t *testing.T, msg string) int {
	t.Helper()
	m := regexp.MustCompile(`cycle (\d+)`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("%q names no cycle", msg)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// countsAddUp: every stored cycle has its nodes' shares, and they add up
// to the cycle's counts (its threads' rows), which add up to the scale's.
func countsAddUp(t *testing.T, s results.ScaleResult) {
	t.Helper()
	if len(s.NodeCycles) != len(s.Cycles) {
		t.Errorf("%d cycles with nodes, %d cycle rates: want one per stored cycle", len(s.NodeCycles), len(s.Cycles))
	}
	var total int64
	for _, cn := range s.NodeCycles {
		var nodes, nodesFailed, threads, threadsFailed int64
		for _, n := range cn.Nodes {
			nodes += n.Transactions
			nodesFailed += n.Failed
		}
		for _, d := range s.CycleDetail {
			if d.Cycle == cn.Cycle {
				threads += d.Committed
				threadsFailed += d.Failed
			}
		}
		if nodes != threads || nodesFailed != threadsFailed || nodes == 0 {
			t.Errorf("cycle %d: nodes %d committed, %d failed; threads %d, %d: want equal and some committed", cn.Cycle, nodes, nodesFailed, threads, threadsFailed)
		}
		total += nodes
	}
	if total != s.Transactions {
		t.Errorf("the nodes' transactions sum to %d, the scale's are %d", total, s.Transactions)
	}
}

// renderAgain renders the page again from the stored run (as months later)
// and returns it.
func renderAgain(t *testing.T, out string) string {
	t.Helper()
	os.Remove(filepath.Join(out, "report.html"))
	cmd := exec.Command(os.Args[0], "report", out)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dbgauge report %s: %v\n%s", out, err, b)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// endedByLoss checks a run that lost agent lost under the default policy:
// the master said missing then lost, exit 1, complete: false with the
// agent and the cycle named, the cycles before kept with their nodes'
// counts adding up, the cut-short cycle stored nowhere, the agent's
// record, the page and results.txt saying why.
func endedByLoss(t *testing.T, sw *agentSweep, lost string) {
	t.Helper()
	code := sw.master.wait()
	stderr := sw.master.stderr()
	if code != ExitFailure {
		t.Fatalf("master: exit %d, want %d; stderr:\n%s", code, ExitFailure, stderr)
	}
	missing := strings.Index(stderr, "agent "+lost+": ")
	if missing < 0 || !regexp.MustCompile(`agent `+lost+`: .*missing: no heartbeat`).MatchString(stderr) ||
		!regexp.MustCompile(`agent `+lost+`: .*lost: no heartbeat`).MatchString(stderr[missing:]) {
		t.Errorf("master's stderr: want agent %s said missing, then lost:\n%s", lost, stderr)
	}
	res := sw.results(t)
	if res.Complete || !strings.Contains(res.Error, "agent "+lost+" ") || !strings.Contains(res.Error, "lost") {
		t.Fatalf("results.json: complete %v, error %q: want the lost agent named", res.Complete, res.Error)
	}
	cut := cycleOf(t, res.Error)
	if len(res.Scales) != 1 {
		t.Fatalf("%d scales stored, want scale 1 with the cycles before the loss", len(res.Scales))
	}
	s := res.Scales[0]
	if cut < 2 || len(s.Cycles) != cut-1 {
		t.Errorf("cycle %d cut short, %d cycles stored: want the %d before it, the fault striking after cycle 1", cut, len(s.Cycles), cut-1)
	}
	for _, cn := range s.NodeCycles {
		if cn.Cycle >= cut {
			t.Errorf("cycle %d (cut short at %d) stored with its nodes: %+v", cn.Cycle, cut, cn)
		}
	}
	for _, d := range s.CycleDetail {
		if d.Cycle >= cut {
			t.Errorf("cycle %d (cut short at %d) stored in cycle_detail", d.Cycle, cut)
			break
		}
	}
	countsAddUp(t, s)
	plausibleProgress(t, sw)
	a := agentInfo(t, res, lost)
	events := strings.Join(a.Events, "\n")
	if a.Status != "lost" || !strings.Contains(events, "missing") || !strings.Contains(events, "lost") ||
		!strings.Contains(events, fmt.Sprintf("cycle %d", cut)) {
		t.Errorf("agent %s: status %q, events %q: want lost, its events missing then lost in cycle %d", lost, a.Status, a.Events, cut)
	}
	txt, err := os.ReadFile(filepath.Join(sw.out, "results.txt"))
	if err != nil || !strings.Contains(string(txt), res.Error) {
		t.Errorf("results.txt (%v): want the error %q", err, res.Error)
	}
	lines := strings.Split(stderr, "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "agent "+lost) {
		t.Errorf("master's last line %q: want the lost agent named", last)
	}
	page := renderAgain(t, sw.out)
	if !incompleteWords.MatchString(page) || !strings.Contains(page, fmt.Sprintf("agent %s (node", lost)) {
		t.Errorf("report.html: want it to say the run did not complete, and that agent %s was lost", lost)
	}
}

// plausibleProgress: the master's progress lines, summed from the agents'
// heartbeats, never show a negative rate (a count of the cycle before
// taken for this one's).
func plausibleProgress(t *testing.T, sw *agentSweep) {
	t.Helper()
	if m := regexp.MustCompile(`.*-\d+(\.\d+)? tps.*`).FindString(sw.master.stderr()); m != "" {
		t.Errorf("master's progress %q: a negative rate", m)
	}
}

// lostBetweenScales: agent b, killed while scale 2 was populated, is lost,
// and its events place the loss after scale 1, not in its last cycle.
func lostBetweenScales(t *testing.T, res results.DSBenchResults) {
	t.Helper()
	a := agentInfo(t, res, "b")
	events := strings.Join(a.Events, "\n")
	if a.Status != "lost" || !regexp.MustCompile(`(after scale 1|scale 2)[^\n]*: lost`).MatchString(events) || strings.Contains(events, "cycle") {
		t.Errorf("agent b: status %q, events %q: want lost after scale 1 (or in scale 2), in no cycle", a.Status, a.Events)
	}
}

// survivorEnded: an agent the master told the run ended exits 0, saying so.
func survivorEnded(t *testing.T, p *proc) {
	t.Helper()
	if code := p.wait(); code != ExitOK || !strings.Contains(p.stderr(), "the master ended the run") {
		t.Errorf("%s: exit %d, want 0 and that the master ended the run; stderr:\n%s", p.name, code, p.stderr())
	}
}

// intervalLogKept: the agent's own interval log (its durable copy) is in
// its --dir and reads back, with at least the first cycle.
func intervalLogKept(t *testing.T, sw *agentSweep, name string) {
	t.Helper()
	logs := agentLogs(t, sw.dirs[name])
	if len(logs) != 1 {
		t.Fatalf("agent %s kept %v: want its interval log of scale 1", name, logs)
	}
	hs, err := results.ReadHistogramLog(logs[0])
	if err != nil || len(hs) == 0 {
		t.Errorf("agent %s's interval log %s: %d intervals, %v: want the cycles it ran", name, logs[0], len(hs), err)
	}
}

func TestAgentFaults(t *testing.T) {
	t.Run("agent-killed", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"})
		sw.inCycle2()
		sw.agents["b"].kill(syscall.SIGKILL)
		endedByLoss(t, sw, "b")
		survivorEnded(t, sw.agents["a"])
		sw.agents["b"].wait()
		noSessionsLeft(t, inst.URL)
	})

	t.Run("agent-killed/tolerate-node-loss", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"}, "--tolerate-node-loss")
		sw.inCycle2()
		sw.agents["b"].kill(syscall.SIGKILL)
		sw.succeeded(t, sw.agents["a"])
		res := sw.results(t)
		if !res.Complete || len(res.Scales) != 1 {
			t.Fatalf("complete %v, error %q, %d scales: want the sweep complete", res.Complete, res.Error, len(res.Scales))
		}
		s := res.Scales[0]
		if !s.Consistent || len(s.Cycles) != 3 || len(s.NodeCycles) != 3 {
			t.Fatalf("consistent %v (%q), %d cycles, %d with nodes: want all three, consistent", s.Consistent, s.Inconsistency, len(s.Cycles), len(s.NodeCycles))
		}
		countsAddUp(t, s)
		plausibleProgress(t, sw)
		lostIn := 0
		for _, cn := range s.NodeCycles {
			names := map[string]results.NodeCycle{}
			for _, n := range cn.Nodes {
				names[n.Name] = n
			}
			b, hasB := names["b"]
			switch {
			case lostIn == 0 && hasB && b.Lost:
				lostIn = cn.Cycle
				if !strings.Contains(cn.Flag, "agent b") || b.Transactions != 0 || names["a"].Transactions == 0 {
					t.Errorf("cycle %d, b lost in it: flag %q, b %+v, a %+v: want the flag naming b, the survivor's counts only", cn.Cycle, cn.Flag, b, names["a"])
				}
			case lostIn == 0:
				if cn.Flag != "" || !hasB || b.Transactions == 0 {
					t.Errorf("cycle %d, before the loss: flag %q, nodes %+v: want both nodes' counts", cn.Cycle, cn.Flag, cn.Nodes)
				}
			default:
				if hasB || !strings.Contains(cn.Flag, "agent b") || len(cn.Nodes) != 1 {
					t.Errorf("cycle %d, after b was lost in %d: flag %q, nodes %+v: want the survivor's counts only, flagged", cn.Cycle, lostIn, cn.Flag, cn.Nodes)
				}
			}
		}
		if lostIn < 2 {
			t.Errorf("b lost in cycle %d: want a cycle after the first flagged (the fault struck after cycle 1)", lostIn)
		}
		if a := agentInfo(t, res, "b"); a.Status != "lost" || !strings.Contains(strings.Join(a.Events, " "), "lost") {
			t.Errorf("agent b: status %q, events %q: want lost", a.Status, a.Events)
		}
		for _, nr := range s.NodeRates {
			if nr.MedianTPS <= 0 {
				t.Errorf("node %s: median %.1f tps: want its rate over the cycles it ran", nr.Name, nr.MedianTPS)
			}
		}
		// The lost node's commits are unknown, not a count: the check
		// takes them as a lower bound, and no count of commits in doubt
		// exceeds what was tried.
		if s.InDoubt > s.Transactions+s.Failed {
			t.Errorf("%d commits in doubt out of %d tried: not a count", s.InDoubt, s.Transactions+s.Failed)
		}
		if !regexp.MustCompile(`agent b lost`).MatchString(strings.Join(res.Warnings, "\n")) {
			t.Errorf("warnings %q: want the loss and the weaker check said", res.Warnings)
		}
		noSessionsLeft(t, inst.URL)
	})

	// Between scales: the agent dies once scale 1 is done (its summary line),
	// and is lost while the master hands out the scale's job (or
	// populates). Flags after the defaults override them.
	betweenScales := []string{"--scales", "1,2", "--cycles", "2"}
	t.Run("agent-killed-between-scales", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"}, betweenScales...)
		sw.master.waitLine(`scale 1 +median`)
		sw.agents["b"].kill(syscall.SIGKILL)
		if code := sw.master.wait(); code != ExitFailure {
			t.Fatalf("master: exit %d, want 1; stderr:\n%s", code, sw.master.stderr())
		}
		survivorEnded(t, sw.agents["a"])
		res := sw.results(t)
		if res.Complete || !regexp.MustCompile(`agent b\b`).MatchString(res.Error) || !strings.Contains(res.Error, "scale 2") || strings.Contains(res.Error, "cycle") {
			t.Errorf("complete %v, error %q: want agent b named, lost before scale 2 ran a cycle", res.Complete, res.Error)
		}
		if len(res.Scales) == 0 || len(res.Scales[0].Cycles) != 2 {
			t.Fatalf("scales %d: want scale 1 kept whole", len(res.Scales))
		}
		countsAddUp(t, res.Scales[0])
		for _, s := range res.Scales[1:] {
			if len(s.Cycles) != 0 || len(s.NodeCycles) != 0 {
				t.Errorf("scale %d: %d cycles stored: want none (no cycle ran)", s.Scale, len(s.Cycles))
			}
		}
		lostBetweenScales(t, res)
	})

	t.Run("agent-killed-between-scales/tolerate-node-loss", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"}, append(betweenScales, "--tolerate-node-loss")...)
		sw.master.waitLine(`scale 1 +median`)
		sw.agents["b"].kill(syscall.SIGKILL)
		sw.succeeded(t, sw.agents["a"])
		res := sw.results(t)
		if !res.Complete || len(res.Scales) != 2 {
			t.Fatalf("complete %v, error %q, %d scales: want both scales", res.Complete, res.Error, len(res.Scales))
		}
		for _, s := range res.Scales {
			if !s.Consistent || len(s.Cycles) != 2 {
				t.Errorf("scale %d: consistent %v (%q), %d cycles: want 2, consistent", s.Scale, s.Consistent, s.Inconsistency, len(s.Cycles))
			}
			countsAddUp(t, s)
		}
		for _, cn := range res.Scales[0].NodeCycles {
			if cn.Flag != "" || len(cn.Nodes) != 2 {
				t.Errorf("scale 1 cycle %d: flag %q, nodes %+v: want both nodes, no flag", cn.Cycle, cn.Flag, cn.Nodes)
			}
		}
		for _, cn := range res.Scales[1].NodeCycles {
			if !strings.Contains(cn.Flag, "agent b") || len(cn.Nodes) != 1 || cn.Nodes[0].Name != "a" {
				t.Errorf("scale 2 cycle %d: flag %q, nodes %+v: want the survivor alone, flagged naming b", cn.Cycle, cn.Flag, cn.Nodes)
			}
		}
		lostBetweenScales(t, res)
	})

	t.Run("agent-stopped-past-loss", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"})
		sw.inCycle2()
		b := sw.agents["b"]
		b.kill(syscall.SIGSTOP)
		sw.master.waitLine(`agent b: .*lost: no heartbeat`)
		b.kill(syscall.SIGCONT)
		continued := time.Now()
		endedByLoss(t, sw, "b")
		survivorEnded(t, sw.agents["a"])
		// Continued, it finds its master ended the run or silent, and
		// stops its load: it exits, and the server has none of its
		// sessions.
		code := b.wait()
		t.Logf("agent b ended %.1f s after it was continued", b.endedAt.Sub(continued).Seconds())
		last := b.stderr()[strings.LastIndex(b.stderr(), "\n")+1:]
		if (code != ExitOK || !strings.Contains(last, "the master ended the run")) &&
			(code != ExitFailure || !strings.Contains(last, "the master went silent")) {
			t.Errorf("agent b continued: exit %d, last line %q: want it to stop, naming the master's end or silence", code, last)
		}
		noSessionsLeft(t, inst.URL)
		intervalLogKept(t, sw, "b")
	})

	t.Run("agent-stopped-past-loss/tolerate-node-loss", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"}, "--tolerate-node-loss")
		sw.inCycle2()
		b := sw.agents["b"]
		b.kill(syscall.SIGSTOP)
		lost := cycleOf(t, sw.master.waitLine(`agent b: .*lost: no heartbeat`)[0])
		b.kill(syscall.SIGCONT)
		sw.succeeded(t, sw.agents["a"])
		// Continued while its master goes on, it finds itself written
		// off (its report refused, its next cycle aborted): it runs no
		// later cycle, and exits when the master ends the run. Its
		// master never went silent, whatever its own clock says.
		survivorEnded(t, b)
		ran := 0
		for _, m := range regexp.MustCompile(`cycle (\d+)/3: [0-9.]+ tps`).FindAllStringSubmatch(b.stderr(), -1) {
			ran, _ = strconv.Atoi(m[1])
		}
		if ran == 0 || ran > lost {
			t.Errorf("agent b, lost in cycle %d, ran up to cycle %d: want none after; stderr:\n%s", lost, ran, b.stderr())
		}
		if strings.Contains(b.stderr(), "went silent") {
			t.Errorf("agent b: its master went on, yet:\n%s", b.stderr())
		}
		res := sw.results(t)
		if !res.Complete || len(res.Scales) != 1 || !res.Scales[0].Consistent || len(res.Scales[0].Cycles) != 3 {
			t.Fatalf("complete %v, error %q: want the sweep complete and consistent", res.Complete, res.Error)
		}
		countsAddUp(t, res.Scales[0])
		intervalLogKept(t, sw, "b")
	})

	t.Run("agent-stopped-then-back", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"})
		sw.inCycle2()
		b := sw.agents["b"]
		b.kill(syscall.SIGSTOP)
		sw.master.waitLine(`agent b: .*missing: no heartbeat`)
		// Back well before the loss (3 s missing + 1.5 s, of 10 s).
		time.Sleep(1500 * time.Millisecond)
		b.kill(syscall.SIGCONT)
		sw.succeeded(t, sw.agents["a"], b)
		res := sw.results(t)
		if !res.Complete || len(res.Scales) != 1 || !res.Scales[0].Consistent || len(res.Scales[0].Cycles) != 3 {
			t.Fatalf("complete %v, error %q, scales %d: want the sweep complete and consistent", res.Complete, res.Error, len(res.Scales))
		}
		countsAddUp(t, res.Scales[0])
		plausibleProgress(t, sw)
		a := agentInfo(t, res, "b")
		events := strings.Join(a.Events, "\n")
		if a.Status != "ok" || a.HeartbeatsLost <= 0 || !strings.Contains(events, "missing") || !strings.Contains(events, "back after") {
			t.Errorf("agent b: status %q, %d heartbeats lost, events %q: want ok, heartbeats lost, missing then back", a.Status, a.HeartbeatsLost, a.Events)
		}
		if a := agentInfo(t, res, "a"); a.Status != "ok" || len(a.Events) != 0 {
			t.Errorf("agent a: status %q, events %q: want ok, nothing happened", a.Status, a.Events)
		}
		// The cycle b stalled in is flagged, and only that one.
		flagged := 0
		for _, c := range res.Scales[0].NodeCycles {
			if strings.Contains(c.Flag, "agent b missing") {
				flagged++
			} else if c.Flag != "" {
				t.Errorf("cycle %d flagged %q", c.Cycle, c.Flag)
			}
		}
		if flagged != 1 {
			t.Errorf("%d cycles flagged with b missing, want 1", flagged)
		}
	})

	t.Run("master-killed", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a", "b"})
		sw.inCycle2()
		sw.master.kill(syscall.SIGKILL)
		sw.master.wait()
		for _, n := range []string{"a", "b"} {
			p := sw.agents[n]
			code := p.wait()
			// A figure, not a criterion: the silence is 10 s.
			t.Logf("agent %s ended %.1f s after the master", n, p.endedAt.Sub(sw.master.endedAt).Seconds())
			lines := strings.Split(p.stderr(), "\n")
			if last := lines[len(lines)-1]; code != ExitFailure || !strings.Contains(last, "the master went silent") || !strings.Contains(last, "load stopped") {
				t.Errorf("agent %s: exit %d, last line %q: want 1 and the master's silence named", n, code, last)
			}
			intervalLogKept(t, sw, n)
		}
		noSessionsLeft(t, inst.URL)

		// The run resumes from its scale, on agents started again.
		resumed := startProc(t, "resumed master", os.Args[0], "resume", sw.out, "--db", inst.URL)
		url := resumed.waitLine(`waiting up to .* agents at (nats://\S+)`)[1]
		for _, n := range []string{"a", "b"} {
			startProc(t, "agent "+n+" again", os.Args[0], "agent", "--master", url, "--name", n, "--dir", sw.dirs[n])
		}
		if code := resumed.wait(); code != ExitOK {
			t.Fatalf("resume: exit %d; stderr:\n%s", code, resumed.stderr())
		}
		res := sw.results(t)
		if !res.Complete || len(res.Scales) != 1 || !res.Scales[0].Consistent || len(res.Scales[0].Cycles) != 3 || len(res.Agents) != 2 {
			t.Fatalf("resumed: complete %v, error %q, scales %+v, agents %d", res.Complete, res.Error, len(res.Scales), len(res.Agents))
		}
		countsAddUp(t, res.Scales[0])
	})

	t.Run("agent-of-another-version", func(t *testing.T) {
		t.Parallel()
		other := filepath.Join(t.TempDir(), "dbgauge-other")
		build := exec.Command("go", "build", "-o", other, "-ldflags", "-X github.com/dbgauge/dbgauge/internal/cli.version=other-1",
			"github.com/dbgauge/dbgauge/cmd/dbgauge")
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 1, nil)
		stranger := startProc(t, "agent of other-1", other, "agent", "--master", sw.url, "--name", "x", "--dir", t.TempDir())
		code := stranger.wait()
		lines := strings.Split(strings.TrimSpace(stranger.stderr()), "\n")
		last := lines[len(lines)-1]
		if code != ExitBadInput || !strings.Contains(last, "other-1") || !strings.Contains(last, Version()) ||
			strings.Contains(stranger.stderr(), "Usage:") {
			t.Errorf("agent of another version: exit %d, stderr:\n%s\nwant 2 and one line naming other-1 and %s", code, stranger.stderr(), Version())
		}
		sw.master.waitLine(`refused agent x .*other-1`)
		// The master goes on waiting, and a proper agent is taken.
		good := startProc(t, "agent y", os.Args[0], "agent", "--master", sw.url, "--name", "y", "--dir", t.TempDir())
		sw.succeeded(t, good)
		res := sw.results(t)
		if !res.Complete || len(res.Agents) != 1 || res.Agents[0].Name != "y" {
			t.Errorf("complete %v, agents %+v: want the run complete with agent y only", res.Complete, res.Agents)
		}
	})

	t.Run("agent-restarted-before-the-load", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		sw := startAgentSweep(t, inst.URL, 2, []string{"a"}, "--cycles", "1")
		sw.master.waitLine(`agent a registered`)
		sw.agents["a"].kill(syscall.SIGKILL)
		sw.agents["a"].wait()
		sw.master.waitLine(`agent a: .*missing`)
		// Started again under its name: it takes the dead one's place.
		again := startProc(t, "agent a again", os.Args[0], "agent", "--master", sw.url, "--name", "a", "--dir", sw.dirs["a"])
		sw.master.waitLine(`agent a registered again`)
		b := startProc(t, "agent b", os.Args[0], "agent", "--master", sw.url, "--name", "b", "--dir", t.TempDir())
		sw.succeeded(t, again, b)
		res := sw.results(t)
		if !res.Complete || len(res.Agents) != 2 || res.Agents[0].Status != "ok" {
			t.Fatalf("complete %v, error %q, agents %+v", res.Complete, res.Error, res.Agents)
		}
		countsAddUp(t, res.Scales[0])
	})

	t.Run("agent-timeout", func(t *testing.T) {
		t.Parallel()
		inst := servertest.Start(t, "postgres", server.Options{})
		// One agent of two; it dials the master before it listens, and
		// retries until it answers.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		url := "nats://" + addr
		ag := startProc(t, "agent a", os.Args[0], "agent", "--master", url, "--name", "a", "--dir", t.TempDir())
		ag.waitLine(`waiting for the master`)
		out := filepath.Join(t.TempDir(), "run")
		master := startProc(t, "master", os.Args[0], "dsbench", "--db", inst.URL, "--nodes", "2", "--listen", addr,
			"--agent-timeout", "15s", "--scales", "1", "--cycles", "1", "--duration", "1s", "--out", out)
		master.waitLine(`agent a registered`)
		code := master.wait()
		lines := strings.Split(master.stderr(), "\n")
		last := lines[len(lines)-1]
		if code != ExitFailure || !strings.Contains(last, "1 of 2 agents registered") || !strings.Contains(last, "dbgauge agent --master "+url) {
			t.Errorf("master: exit %d, last line %q: want 1, how many registered and the agent command", code, last)
		}
		sw := &agentSweep{out: out, master: master}
		res := sw.results(t)
		if res.Complete || !strings.Contains(res.Error, "1 of 2 agents registered") || len(res.Scales) != 0 {
			t.Errorf("complete %v, error %q, %d scales: want nothing measured and the agents missing named", res.Complete, res.Error, len(res.Scales))
		}
		survivorEnded(t, ag)
	})
}
