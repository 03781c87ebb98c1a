package experiment

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// checkCPU: the CPU measures of a scale are there and possible: the
// client's per transaction positive, every share in (0, 1]; the server's
// present exactly when it can be known.
func checkCPU(t *testing.T, s results.ScaleResult, server bool) {
	t.Helper()
	share := func(name string, v *float64) {
		t.Helper()
		if v == nil {
			t.Errorf("scale %d: %s missing", s.Scale, name)
		} else if !(*v > 0 && *v <= 1) {
			t.Errorf("scale %d: %s = %v, want in (0, 1]", s.Scale, name, *v)
		}
	}
	if s.ClientCPUPerTxUS == nil || !(*s.ClientCPUPerTxUS > 0) {
		t.Errorf("scale %d: client_cpu_per_tx_us %v", s.Scale, s.ClientCPUPerTxUS)
	} else if want := 1e6 * s.ClientCPUS / float64(s.Transactions); math.Abs(*s.ClientCPUPerTxUS-want) > 1e-9*want {
		t.Errorf("scale %d: client_cpu_per_tx_us %v, client_cpu_s / transactions %v", s.Scale, *s.ClientCPUPerTxUS, want)
	}
	share("client_cpu_share", s.ClientCPUShare)
	share("machine_cpu_share", s.MachineCPUShare)
	if s.MachineCPUs < 1 || s.CPUIntervalS <= 0 {
		t.Errorf("scale %d: %d CPUs over %v s", s.Scale, s.MachineCPUs, s.CPUIntervalS)
	}
	if server {
		share("server_cpu_share", s.ServerCPUShare)
	} else if s.ServerCPUShare != nil || s.ServerCPUS != nil {
		t.Errorf("scale %d: a server share (%v, %v s) without a server of its own", s.Scale, s.ServerCPUShare, s.ServerCPUS)
	}
}

// The meter adds up its stretches; the shares come out as derived by
// hand: two cycles of 5 s on 4 CPUs (40 CPU seconds), 2 + 4 s of client
// CPU (0.15 of the machine, 500 µs for each of 12,000 transactions), 1,000
// + 2,000 busy of 4,000 ticks (0.75), 800 + 1,200 server ticks of 1/100 s
// (20 s, 0.5).
func TestCPUMeterArithmetic(t *testing.T) {
	t0 := time.Now()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	reading := func(s, client float64, busy, idle, server uint64) cpuReading {
		return cpuReading{at: at(s), client: client, machine: sysinfo.CPUTimes{User: busy, Idle: idle}, cpus: 4, hasMachine: true, server: server, hasServer: true}
	}
	m := &cpuMeter{server: &serverProcs{}}
	m.add(reading(0, 1, 100, 300, 500), reading(5, 3, 1100, 1300, 1300))
	// the check between the cycles (6 s) is not measured
	m.add(reading(11, 3.5, 1500, 1500, 1400), reading(16, 7.5, 3500, 1500, 2600))
	sr := results.ScaleResult{Scale: 1, Transactions: 12000}
	fillCPU(&sr, m)
	for _, c := range []struct {
		name      string
		got       *float64
		want      float64
		tolerance float64
	}{
		{"client_cpu_s", &sr.ClientCPUS, 6, 1e-9},
		{"cpu_interval_s", &sr.CPUIntervalS, 10, 1e-6},
		{"client_cpu_per_tx_us", sr.ClientCPUPerTxUS, 500, 1e-6},
		{"client_cpu_share", sr.ClientCPUShare, 0.15, 1e-6},
		{"machine_cpu_share", sr.MachineCPUShare, 0.75, 1e-12},
		{"server_cpu_s", sr.ServerCPUS, 20, 1e-9},
		{"server_cpu_share", sr.ServerCPUShare, 0.5, 1e-6},
	} {
		if c.got == nil || math.Abs(*c.got-c.want) > c.tolerance {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if sr.MachineCPUs != 4 {
		t.Errorf("machine_cpus %d, want 4", sr.MachineCPUs)
	}

	// A server reading that failed in one stretch makes the server unknown,
	// not 0; no server at all likewise.
	m.add(reading(20, 8, 3600, 1600, 2700), cpuReading{at: at(21), client: 8.1})
	sr = results.ScaleResult{Transactions: 12000}
	fillCPU(&sr, m)
	if sr.ServerCPUShare != nil || sr.ServerCPUS != nil || sr.MachineCPUShare != nil || sr.ClientCPUShare == nil {
		t.Errorf("lost readings: server %v, machine %v, client %v", sr.ServerCPUShare, sr.MachineCPUShare, sr.ClientCPUShare)
	}
	// No cycle measured: nothing recorded.
	sr = results.ScaleResult{Transactions: 0}
	fillCPU(&sr, &cpuMeter{})
	if sr.ClientCPUShare != nil || sr.CPUIntervalS != 0 {
		t.Errorf("no cycle: %+v", sr)
	}
}

func TestClientCPUWarning(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		share *float64
		limit float64
		want  string
	}{
		{f(0.41), 0.25, "scale 5: the client used 41% of the machine's CPU (more than 25%): the rate is partly the client's, not only the server's; run the load from another machine or with fewer threads"},
		{f(0.254), 0.25, "scale 5: the client used 25.4% of the machine's CPU (more than 25%)"},
		{f(0.25), 0.25, ""},
		{f(0.1), 0.25, ""},
		{nil, 0.25, ""},
	} {
		got := clientCPUWarning(5, c.share, c.limit)
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("share %v, limit %v: %q, want %q", c.share, c.limit, got, c.want)
		}
	}
}

// lowerCPUWarnShare sets the threshold so low that any client exceeds it,
// for the length of the test: the warning's presence, not a timing, is
// tested.
func lowerCPUWarnShare(t *testing.T) {
	old := clientCPUWarnShare
	clientCPUWarnShare = 1e-9
	t.Cleanup(func() { clientCPUWarnShare = old })
}

func cpuWarnings(res *results.DSBenchResults) []string {
	var out []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "of the machine's CPU (more than") {
			out = append(out, w)
		}
	}
	return out
}

// Embedded SQLite: the fields are there and sane, the server is "none"
// (the engine's work is the client's CPU), and the client is never warned
// about, however low the threshold.
func TestDSBenchCPUEmbedded(t *testing.T) {
	lowerCPUWarnShare(t)
	res := sweep(t, "", "tpcb", "")
	if !strings.HasPrefix(res.ServerProcesses, "none: sqlite runs inside dbgauge") {
		t.Errorf("server_processes %q", res.ServerProcesses)
	}
	if w := cpuWarnings(res); len(w) != 0 {
		t.Errorf("embedded engine warned about: %q", w)
	}
}

// A local PostgreSQL: the server's share is measured over the postmaster's
// tree, and a client above the (lowered) threshold is warned about once
// per scale, in results.json and results.txt.
func TestDSBenchCPUWarning(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	lowerCPUWarnShare(t)
	dir := filepath.Join(t.TempDir(), "run")
	plan := DSBenchPlan{Mode: "tpcb", Scales: []int64{1, 2}, Cycles: 2, Duration: time.Second, Nodes: 1, Threads: 2, Conns: 1,
		Confidence: []float64{50, 95}, Seed: 1}
	res, err := RunDSBench(context.Background(), DSBenchSetup{DB: inst.URL, Dir: dir, Version: "test"}, plan, progress.New(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.ServerProcesses, "and its child processes") || !strings.Contains(res.ServerProcesses, "pg_backend_pid()") {
		t.Errorf("server_processes %q", res.ServerProcesses)
	}
	w := cpuWarnings(res)
	if len(w) != 2 || !strings.HasPrefix(w[0], "scale 1: the client used ") || !strings.HasPrefix(w[1], "scale 2: the client used ") ||
		!strings.HasSuffix(w[0], "the rate is partly the client's, not only the server's; run the load from another machine or with fewer threads") {
		t.Errorf("CPU warnings %q, want one per scale", w)
	}
	for _, s := range res.Scales {
		checkCPU(t, s, true)
	}
	var back results.DSBenchResults
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(cpuWarnings(&back)) != 2 || back.Scales[0].ServerCPUShare == nil {
		t.Errorf("results.json lacks the CPU warnings or the server's share")
	}
	if txt, err := os.ReadFile(filepath.Join(dir, "results.txt")); err != nil || !strings.Contains(string(txt), "# warning: scale 2: the client used ") {
		t.Errorf("results.txt lacks the CPU warning (%v)", err)
	}
}
