package experiment

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/timing"
)

// Is dbgauge the bottleneck? Per scale, over exactly its cycles (the
// consistency checks and cleanups between cycles left out), the client's
// CPU time, the machine's busy share from /proc/stat and, for a server on
// this machine whose processes are known, the server's CPU time.

// clientCPUWarnShare is the share of the whole machine's CPU (all CPUs
// together) above which dbgauge's own process makes a scale's rate partly
// the client's: on a machine shared with the server, a client that takes
// more than a quarter of all CPUs takes capacity the server would otherwise
// have, so the rate measures the pair, not the server alone. A quarter
// leaves the server three quarters of the machine; below it the client's
// cost is small beside what the server had. Embedded engines are not
// warned about: their work is dbgauge's CPU. A variable so that tests can
// lower it.
var clientCPUWarnShare = 0.25

// serverProcs is a server on this machine: a root process and every
// process below it.
type serverProcs struct {
	root  int
	start uint64 // the root's start time: a restarted server is another process
}

// ticks is the CPU time of the whole tree now (ok false when the root is
// gone or was replaced).
func (s *serverProcs) ticks() (uint64, bool) {
	snap, err := timing.TakeSnapshot(timing.SnapshotOptions{})
	if err != nil {
		return 0, false
	}
	if p, ok := snap.Procs[s.root]; !ok || p.StartTime != s.start {
		return 0, false
	}
	return timing.TreeTicks(snap, s.root)
}

// findServer finds the server's processes through the control session: the
// process the engine names for it (PostgreSQL's backend, MariaDB's server
// from its pid file, Firebird's MON$SERVER_PID), or the process listening
// on the URL's port, then up through parents of the same engine (a
// PostgreSQL backend's postmaster) to the server's root; its tree is the
// server (the postmaster's children: every backend and background
// process). nil when unknown, with the reason; how says which processes
// or why not. embedded says the engine runs inside dbgauge.
func findServer(ctx context.Context, e dbms.Engine, rawURL string) (srv *serverProcs, how string, embedded bool) {
	u, err := dbms.ParseURL(rawURL)
	if err != nil {
		return nil, "unknown: " + err.Error(), false
	}
	inside := fmt.Sprintf("none: %s runs inside dbgauge's process, so the client's CPU includes the engine's work", e.Name())
	if u.Path != "" { // an embedded engine's file: no server to ask
		return nil, inside, true
	}
	if !u.Local() {
		return nil, fmt.Sprintf("unknown: the server is not on this machine (host %s)", u.Host), false
	}
	qp, err := timing.FindQueryProcess(ctx, e, rawURL)
	if err != nil {
		return nil, "unknown: " + err.Error(), false
	}
	if qp.Embedded {
		return nil, inside, true
	}
	// The first clause of How says where the process came from (MariaDB's
	// adds one about threads, which the whole-process count does not use),
	// unless it was found by its port.
	clauses := strings.Split(qp.How, "; ")
	found := clauses[0]
	if last := clauses[len(clauses)-1]; strings.HasPrefix(last, "the process listening") {
		found = last
	}
	proc, err := timing.ReadProcess(qp.PID)
	if err != nil {
		return nil, fmt.Sprintf("unknown: process %d (%s): %v", qp.PID, found, err), false
	}
	if engine, helper := timing.DBMSOf(proc.Comm); engine == "" || helper {
		// A server in a container names a pid of its own namespace.
		return nil, fmt.Sprintf("unknown: process %d (%s) is %q here, not a database server (a server in another pid namespace, a container?)", qp.PID, found, proc.Comm), false
	}
	root, err := timing.ServerRoot(proc.PID, 8)
	if err != nil {
		return nil, fmt.Sprintf("unknown: process %d (%s): %v", qp.PID, found, err), false
	}
	how = fmt.Sprintf("%s (pid %d) and its child processes", root.Comm, root.PID)
	if root.PID != proc.PID {
		how += fmt.Sprintf(", the parent of the control session's process %d", proc.PID)
	}
	if found != "" {
		how += " (found from " + found + ")"
	}
	return &serverProcs{root: root.PID, start: root.StartTime}, how, false
}

// cpuReading is the counters at one instant.
type cpuReading struct {
	at         time.Time
	client     float64 // dbgauge's user + system seconds
	machine    sysinfo.CPUTimes
	cpus       int
	hasMachine bool
	server     uint64 // ticks
	hasServer  bool
}

// cpuMeter adds up the CPU of a scale's cycles: start before a cycle, stop
// after it; discard drops a stretch that was no cycle.
type cpuMeter struct {
	server *serverProcs // nil: unknown
	open   *cpuReading
	use    stats.CPUUse
	// serverTicks is the server's CPU so far, in ticks (summed as
	// integers, converted once).
	serverTicks uint64
	// windows counts the stretches measured; machineLost and serverLost
	// say a reading failed in one of them.
	windows                 int
	machineLost, serverLost bool
}

// read takes the counters; opening says it begins a stretch. The slow
// reading (every process's /proc/PID/stat for the server's tree) comes
// first when a stretch opens and last when it closes, the client's and the
// clock in the middle, so that dbgauge's own reading is not the client's
// CPU and every counter covers about the same stretch.
func (m *cpuMeter) read(opening bool) cpuReading {
	var c cpuReading
	server := func() {
		if m.server != nil {
			c.server, c.hasServer = m.server.ticks()
		}
	}
	machine := func() {
		if t, n, err := sysinfo.ReadMachineCPU(); err == nil {
			c.machine, c.cpus, c.hasMachine = t, n, true
		}
	}
	if opening {
		server()
		machine()
		c.at, c.client = time.Now(), sysinfo.ProcessCPU()
	} else {
		c.client, c.at = sysinfo.ProcessCPU(), time.Now()
		machine()
		server()
	}
	return c
}

func (m *cpuMeter) start() {
	c := m.read(true)
	m.open = &c
}

func (m *cpuMeter) discard() { m.open = nil }

func (m *cpuMeter) stop() {
	if m.open == nil {
		return
	}
	b, e := *m.open, m.read(false)
	m.open = nil
	m.add(b, e)
}

// add counts the stretch from b to e.
func (m *cpuMeter) add(b, e cpuReading) {
	m.windows++
	m.use.ElapsedS += e.at.Sub(b.at).Seconds()
	m.use.ClientCPUS += max(e.client-b.client, 0)
	if b.hasMachine && e.hasMachine {
		m.use.CPUs = max(m.use.CPUs, e.cpus)
		m.use.MachineBusy += tickDelta(b.machine.Busy(), e.machine.Busy())
		m.use.MachineTotal += tickDelta(b.machine.Total(), e.machine.Total())
	} else {
		m.machineLost = true
	}
	if b.hasServer && e.hasServer {
		m.serverTicks += tickDelta(b.server, e.server)
	} else {
		m.serverLost = true
	}
}

// tickDelta is e - b, 0 for a counter that went backwards (a server
// process that left the tree unreaped; iowait's documented jitter).
func tickDelta(b, e uint64) uint64 {
	if e < b {
		return 0
	}
	return e - b
}

// total is what was measured, for the scale's transactions.
func (m *cpuMeter) total(transactions int64) stats.CPUUse {
	u := m.use
	u.Transactions = transactions
	if u.CPUs == 0 {
		u.CPUs = runtime.NumCPU()
	}
	if m.machineLost {
		u.MachineBusy, u.MachineTotal = 0, 0
	}
	u.ServerKnown = m.server != nil && !m.serverLost
	u.ServerCPUS = float64(m.serverTicks) * timing.TickMS / 1000
	return u
}

// fillCPU stores the meter's measures in the scale's row; nothing when no
// cycle was measured.
func fillCPU(sr *results.ScaleResult, m *cpuMeter) {
	if m.windows == 0 {
		return
	}
	u := m.total(sr.Transactions)
	sh := stats.SharesOfCPU(u)
	sr.ClientCPUS, sr.CPUIntervalS, sr.MachineCPUs = u.ClientCPUS, u.ElapsedS, u.CPUs
	sr.ClientCPUPerTxUS, sr.ClientCPUShare, sr.MachineCPUShare, sr.ServerCPUShare = known(sh.ClientPerTxUS), known(sh.Client), known(sh.Machine), known(sh.Server)
	if u.ServerKnown {
		sr.ServerCPUS = &u.ServerCPUS
	}
}

// known is v, or nil for NaN (unknown).
func known(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// clientCPUWarning is the warning for a client that used more than limit of
// the machine's CPU at a scale, "" when it did not.
func clientCPUWarning(scale int64, share *float64, limit float64) string {
	if share == nil || *share <= limit {
		return ""
	}
	return fmt.Sprintf("scale %d: the client used %s%% of the machine's CPU (more than %s%%): the rate is partly the client's, not only the server's; run the load from another machine or with fewer threads",
		scale, percentAbove(*share, limit), strconv.FormatFloat(100*limit, 'g', 3, 64))
}

// percentAbove writes share as a percentage with as few decimals as make it
// read above limit (41, not 41.3; but 25.4 above 25, not 25).
func percentAbove(share, limit float64) string {
	for d := 0; d < 3; d++ {
		s := strconv.FormatFloat(100*share, 'f', d, 64)
		if v, _ := strconv.ParseFloat(s, 64); v > 100*limit {
			return s
		}
	}
	return strconv.FormatFloat(100*share, 'f', 3, 64)
}

// cpuLine is the scale's CPU for the progress line.
func cpuLine(sr *results.ScaleResult) string {
	p := func(v *float64) string {
		if v == nil {
			return "unknown"
		}
		return strconv.FormatFloat(100**v, 'f', 1, 64) + "%"
	}
	return fmt.Sprintf("CPU of the machine: client %s, server %s, all %s", p(sr.ClientCPUShare), p(sr.ServerCPUShare), p(sr.MachineCPUShare))
}
