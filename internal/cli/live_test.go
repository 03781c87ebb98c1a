package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dbgauge/dbgauge/internal/live"
	"github.com/dbgauge/dbgauge/internal/results"
)

// readStream reads a run's live.jsonl.
func readStream(t *testing.T, dir string) []live.Event {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, live.File))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []live.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e live.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("live.jsonl: %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

// byKind groups a stream's events by kind.
func byKind(es []live.Event) map[string][]live.Event {
	m := map[string][]live.Event{}
	for _, e := range es {
		m[e.Kind] = append(m[e.Kind], e)
	}
	return m
}

// journalled returns the run's journal entries of kind.
func journalled(t *testing.T, dir, kind string) []results.RawEntry {
	t.Helper()
	entries, err := results.ReadJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []results.RawEntry
	for _, e := range entries {
		if e.Type == kind {
			out = append(out, e)
		}
	}
	return out
}

// liveSweep is the quickest SQLite sweep with two scales of two cycles.
func liveSweep(out string, cycles string) []string {
	return []string{"dsbench", "--scales", "1,2", "--cycles", cycles, "--duration", "2s", "--threads", "2", "--out", out}
}

// atFirstCycle runs the sweep in another process and calls ask once, at
// the end of scale 1's first cycle (its stderr line): the run is running.
func atFirstCycle(t *testing.T, args []string, ask func()) (lines []string, code int) {
	t.Helper()
	var once sync.Once
	lines, _, code = runWatching(t, args, func(line string, _ *os.Process) {
		if strings.Contains(line, "cycle  1/") {
			once.Do(ask)
		}
	})
	return lines, code
}

// TestLiveStreamDSBench: a real SQLite sweep writes its live stream, whose
// finished cycles add up to results.json's transactions, and a mark asked
// from another process while it runs lands in the journal and the stream.
func TestLiveStreamDSBench(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var markCode int
	var markOut string
	lines, code := atFirstCycle(t, liveSweep(out, "2"), func() {
		markCode, markOut, _ = run("mark", out, "killed node 2")
	})
	if code != 0 || markCode != 0 || !strings.Contains(markOut, "killed node 2") {
		t.Fatalf("exit %d, mark exit %d (%q); stderr:\n%s", code, markCode, markOut, strings.Join(lines, "\n"))
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	es := readStream(t, out)
	k := byKind(es)
	if es[0].Kind != live.KindStart || es[0].Start == nil || es[0].Experiment != "dsbench" || es[0].Engine != "sqlite" ||
		es[0].Cycles != 2 || len(es[0].Scales) != 2 || es[0].PID == 0 || es[0].Resumed {
		t.Errorf("first event %+v, want the sweep's start", es[0])
	}
	last := es[len(es)-1]
	if last.Kind != live.KindEnd || last.End == nil || !last.Complete || last.Error != "" {
		t.Errorf("last event %+v, want a complete end", last)
	}
	phases := map[string]bool{}
	for _, e := range k[live.KindPhase] {
		phases[e.Phase] = true
	}
	for _, p := range []string{"populating", "load", "checking consistency"} {
		if !phases[p] {
			t.Errorf("no %q phase in %v", p, phases)
		}
	}
	rising := false
	for i, e := range k[live.KindRate] {
		if i > 0 {
			prev := k[live.KindRate][i-1]
			if prev.Scale == e.Scale && prev.Cycle == e.Cycle && e.Committed > prev.Committed {
				rising = true
			}
		}
		if e.Rate == nil || e.Cycle < 1 || e.Scale < 1 {
			t.Errorf("rate event %+v", e)
		}
	}
	if !rising {
		t.Errorf("no rate event's count rose within a cycle: %d rate events", len(k[live.KindRate]))
	}
	var streamed, stored int64
	for _, e := range k[live.KindCycle] {
		streamed += e.Committed
	}
	for _, s := range res.Scales {
		stored += s.Transactions
	}
	if len(k[live.KindCycle]) != 4 || streamed != stored || stored == 0 {
		t.Errorf("%d cycle events with %d committed, results.json %d transactions", len(k[live.KindCycle]), streamed, stored)
	}
	if len(k[live.KindScale]) != 2 {
		t.Fatalf("%d scale events, want 2", len(k[live.KindScale]))
	}
	for i, e := range k[live.KindScale] {
		if s := res.Scales[i]; e.Scale != s.Scale || e.TPS != s.MedianTPS || e.Committed != s.Transactions {
			t.Errorf("scale event %+v, results.json scale %d median %g, %d transactions", e.Rate, s.Scale, s.MedianTPS, s.Transactions)
		}
	}
	if len(k[live.KindLoad]) == 0 || k[live.KindLoad][0].Load == nil {
		t.Errorf("no load events")
	}
	if len(k[live.KindLine]) == 0 || !strings.Contains(k[live.KindLine][0].Text, "dbgauge dsbench on") {
		t.Errorf("line events %v, want the run's first line first", k[live.KindLine])
	}
	if m := k[live.KindMark]; len(m) != 1 || m[0].Text != "killed node 2" {
		t.Errorf("mark events %+v", m)
	}
	marks := journalled(t, out, results.MarkEntry{}.JournalKind())
	var m results.MarkEntry
	if len(marks) != 1 || json.Unmarshal(marks[0].Data, &m) != nil || m.Text != "killed node 2" || m.At.IsZero() {
		t.Errorf("journalled marks %+v", marks)
	}
}

// TestLiveStopResume: a stop asked mid-run ends the sweep at a cycle's end
// (or before the next scale) with every finished cycle kept, complete
// false and exit 1, saying that resume continues it; resume completes it.
func TestLiveStopResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var stopCode int
	var stopOut string
	lines, code := atFirstCycle(t, liveSweep(out, "2"), func() { stopCode, stopOut, _ = run("stop", out) })
	if code != ExitFailure || stopCode != 0 || !strings.Contains(stopOut, "stop asked") {
		t.Fatalf("exit %d, stop exit %d (%q); stderr:\n%s", code, stopCode, stopOut, strings.Join(lines, "\n"))
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	if res.Complete || !strings.Contains(res.Error, "stopped at a viewer's request") || !strings.Contains(res.Error, "dbgauge resume "+out) {
		t.Fatalf("complete %v, error %q", res.Complete, res.Error)
	}
	var kept int
	for _, s := range res.Scales {
		if s.Scale != 1 {
			t.Errorf("scale %d measured after the stop", s.Scale)
		}
		kept += len(s.Cycles)
	}
	if j := len(journalled(t, out, results.DSBenchCycle{}.JournalKind())); kept == 0 || kept != j {
		t.Errorf("%d cycles in results.json, %d journalled: a finished cycle was discarded", kept, j)
	}
	if es := readStream(t, out); es[len(es)-1].Kind != live.KindEnd || es[len(es)-1].Complete {
		t.Errorf("last event %+v, want an incomplete end", es[len(es)-1])
	}
	code, _, stderr := run("resume", out)
	res = readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	if code != 0 || !res.Complete || len(res.Scales) != 2 {
		t.Fatalf("resume: exit %d, complete %v, %d scales; stderr:\n%s", code, res.Complete, len(res.Scales), stderr)
	}
	for _, s := range res.Scales {
		if len(s.Cycles) != 2 {
			t.Errorf("scale %d: %d cycles after resume, want 2", s.Scale, len(s.Cycles))
		}
	}
	starts := byKind(readStream(t, out))[live.KindStart]
	if len(starts) != 2 || !starts[1].Resumed {
		t.Errorf("start events %+v, want the first part's and the resumed part's", starts)
	}
}

// TestLiveAbort: an abort asked mid-run ends the sweep at once, as Ctrl-C
// does: exit 1, complete false, the finished cycle kept.
func TestLiveAbort(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var abortCode int
	lines, code := atFirstCycle(t, liveSweep(out, "2"), func() { abortCode, _, _ = run("stop", "--abort", out) })
	if code != ExitFailure || abortCode != 0 {
		t.Fatalf("exit %d, abort exit %d; stderr:\n%s", code, abortCode, strings.Join(lines, "\n"))
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	if res.Complete || !strings.Contains(res.Error, "aborted at a viewer's request") || len(res.Scales) == 0 || len(res.Scales[0].Cycles) == 0 {
		t.Fatalf("complete %v, error %q, scales %d", res.Complete, res.Error, len(res.Scales))
	}
	if kept, j := len(res.Scales[0].Cycles), len(journalled(t, out, results.DSBenchCycle{}.JournalKind())); kept != j {
		t.Errorf("%d cycles kept, %d journalled", kept, j)
	}
}

// TestLiveRequestsRefused: mark and stop refuse a run that is not running
// and a directory that holds no run (exit 2, one line naming it, nothing
// written); a Wisconsin run (no load: no structured figures) streams its
// start, its lines and its end.
func TestLiveRequestsRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run("wisconsin", "--size", "1000", "--queries", "1,2", "--reps", "1", "--out", out); code != 0 {
		t.Fatalf("wisconsin exit %d:\n%s", code, stderr)
	}
	k := byKind(readStream(t, out))
	if s := k[live.KindStart]; len(s) != 1 || s[0].Experiment != "wisconsin" || s[0].Engine == "" {
		t.Errorf("start events %+v", s)
	}
	if e := k[live.KindEnd]; len(e) != 1 || !e[0].Complete {
		t.Errorf("end events %+v", e)
	}
	if len(k[live.KindLine]) == 0 {
		t.Errorf("no line events")
	}
	empty := t.TempDir()
	for _, args := range [][]string{{"mark", out, "late"}, {"stop", out}, {"stop", "--abort", out}, {"mark", empty, "x"}, {"mark", out, " "}} {
		code, _, stderr := run(args...)
		if code != ExitBadInput || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, args[len(args)-1-boolToInt(args[0] == "mark")]) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming the directory", args, code, stderr)
		}
	}
	for _, dir := range []string{out, empty} {
		if _, err := os.Stat(filepath.Join(dir, live.ControlFile)); err == nil {
			t.Errorf("%s: a refused request was written", dir)
		}
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
