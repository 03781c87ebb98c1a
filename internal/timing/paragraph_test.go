package timing

import (
	"strings"
	"testing"
)

func TestTwoSig(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{7.18, "7.2"}, {4.0, "4.0"}, {0.25, "0.25"}, {0.254, "0.25"}, {12.3, "12"},
		{9.96, "10"}, {100, "100"}, {0, "0"}, {100.0 / 3, "33"}, {10.0 / 3, "3.3"}, {0.0068, "0.0068"},
	} {
		if got := TwoSig(c.x); got != c.want {
			t.Errorf("TwoSig(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	text := strings.Repeat("abcde fghij ", 20)
	w := wrap(text, 78)
	for _, l := range strings.Split(w, "\n") {
		if len(l) > 78 || strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") {
			t.Errorf("line %q", l)
		}
	}
	if strings.Join(strings.Fields(w), " ") != strings.TrimSpace(text) {
		t.Error("wrapping changed the words")
	}
}

// flat undoes the wrapping so that phrases can be searched.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestParagraphClean(t *testing.T) {
	e := cleanSweep()
	e.Env = Environment{
		OnlineCores: 1, Hardware: "Intel Core i7-870, 4 GB, WD Caviar Black 1 TB", OS: "Debian 13",
		Kernel: "6.18.0", DelayAccounting: "on (kernel.task_delayacct=1)", CacheMode: "cold", QEsPerQaC: 10,
	}
	p := Paragraph(Analyze(e))
	parts := strings.Split(strings.TrimSuffix(p, "\n"), "\n\n")
	if len(parts) != 2 {
		t.Fatalf("%d paragraphs:\n%s", len(parts), p)
	}
	for _, l := range strings.Split(p, "\n") {
		if len(l) > 78 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	f := flat(p)
	for _, want := range []string{
		"TTPv2 (dbgauge)", "Intel Core i7-870, 4 GB, WD Caviar Black 1 TB", "Debian 13", "6.18.0 kernel",
		"10 times at each cardinality", "cold cache", "in msec", "clock ticks",
		"95% percentile bootstrap confidence interval", "utilized exactly as specified",
		"No runs violated the experiment-wide sanity checks",
		"0% of the QEs (0 of 30) and 0% of the Q@Cs (0 of 3)",
		"0% of the 3 Q@C pairs", "differed by 27% (relative to measured) for the retained Q@Cs",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("paragraph lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(f, "deviated") {
		t.Errorf("clean run has deviations:\n%s", p)
	}
}

func TestParagraphDeviations(t *testing.T) {
	e := cleanSweep()
	// 5 timed-out QEs of 30 (17%) leave one Q@C of 3 (33%) too few.
	for i := range 5 {
		e.QaCs[2].QEs[i].TimedOut = true
	}
	e.QaCs[0].QEs[0].Overall.Steal = 2
	e.QaCs[1].Restarts = 1
	e.Env = Environment{
		OnlineCores: 2, Affinity: "0-1", Virtualization: "kvm",
		DelayAccounting: "off (kernel.task_delayacct=0): block-I/O delay reads 0",
		CacheMode:       "cold", NotFlushed: []string{"PostgreSQL shared buffers (server not managed by dbgauge)"},
		DaemonsRunning: "sshd, cron", ForeignUtilityProcesses: []string{"mysqld (pid 812)"},
		ComputedMeasure: MeasureFine, QEsPerQaC: 10,
	}
	a := Analyze(e)
	p := Paragraph(a)
	f := flat(p)
	for _, want := range []string{
		"deviated from its specification",
		"2 online cores", "CPU affinity 0-1",
		"virtual machine (kvm)",
		"delay accounting was off (kernel.task_delayacct=0: block-I/O delay reads 0)",
		"PostgreSQL shared buffers (server not managed by dbgauge)",
		"daemons were left running: sshd, cron",
		"taskstats and schedstat", "tick-based time",
		"1 Q@C was restarted after a change of plan",
		"steal time (1 QE)", "mysqld (pid 812)",
		"17% of the QEs (5 of 30) and 33% of the Q@Cs (1 of 3)",
		"QEs: timed-out QE (5); Q@Cs: fewer than 6 QEs left (1)",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("paragraph lacks %q:\n%s", want, p)
		}
	}
	if got := Deviations(e.Env); len(got) != 5 {
		t.Errorf("deviations %q", got)
	}
	for _, l := range strings.Split(p, "\n") {
		if len(l) > 78 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}

func TestParagraphNothingRetained(t *testing.T) {
	e := &Experiment{QaCs: []QaC{qacWith(1000, 200, 12, 12, 12)}}
	f := flat(Paragraph(Analyze(e)))
	for _, want := range []string{"100% of the Q@Cs (1 of 1)", "No Q@C was retained", "delay accounting was not recorded", "3 times"} {
		if !strings.Contains(f, want) {
			t.Errorf("paragraph lacks %q: %s", want, f)
		}
	}
}

func TestDelayState(t *testing.T) {
	for _, c := range []struct{ in, state, why string }{
		{"on (kernel.task_delayacct=1)", "on", "kernel.task_delayacct=1"},
		{"unavailable (open /proc/sys/kernel/task_delayacct: no such file): block-I/O delay is not measured",
			"unavailable", "open /proc/sys/kernel/task_delayacct: no such file: block-I/O delay is not measured"},
		{"", "not recorded", ""},
	} {
		if s, w := delayState(c.in); s != c.state || w != c.why {
			t.Errorf("delayState(%q) = %q, %q", c.in, s, w)
		}
	}
}
