package timing

import (
	"os"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Roles says which processes play which part in a QE; every other process
// is a daemon.
type Roles struct {
	// Query is the query process. With TID set only that thread is the
	// query process and the rest of PID counts as utility; with Embedded
	// the query process is dbgauge's own (Own) and PID is ignored.
	Query QueryProcess
	// Utility are the engine's other processes.
	Utility []int
	// Trees are processes that are utility processes together with all
	// their descendants, found in both snapshots and among the exited
	// processes by their parent: a server that forks workers during the
	// QE (PostgreSQL's autovacuum workers) keeps them in its class.
	Trees []int
	// Own is dbgauge's process; 0 means os.Getpid().
	Own int
}

// ExitedProcess is a process that exited during the QE, from a taskstats
// exit notification: one per process (thread group), never one per
// thread of a process that lives on, whose counters /proc already sums.
// Usage holds the process's whole-life totals at exit, in Usage's units,
// with Fine set when its fine-grained fields were filled.
type ExitedProcess struct {
	PID   int
	PPID  int // 0 when unknown
	Comm  string
	Usage Usage
}

// ProcessInfo names a process for a report or a check.
type ProcessInfo struct {
	PID, PPID int
	Comm      string
	// DBMS is the engine a process belongs to (ForeignDBMS); Helper says
	// it is a wrapper or guardian (mysqld_safe, fbguard), not a server.
	DBMS   string
	Helper bool
}

// QEUsage is what Diff finds between the two snapshots of a QE.
type QEUsage struct {
	Classes          map[Class]Usage
	Processes        []ProcessUsage // the ones that used anything, sorted by PID
	Overall          Overall
	QueryProcessSeen bool // in both snapshots (the query thread too, when TID is set)
	// Ephemeral counts the processes whose usage could not be accounted:
	// they were in the first snapshot only and no exit record was given
	// for them (Unseen lists them).
	Ephemeral int
	Unseen    []ProcessInfo
	// CaughtEphemeral counts the exit records of processes that were in
	// neither snapshot: started and ended between them, accounted.
	CaughtEphemeral int
	// Started and Exited count the processes in one snapshot only (a
	// reused PID counts in both); Reused counts PIDs that named two
	// processes (same PID, another start time).
	Started, Exited, Reused int
	// Forks is the number of clone calls during the QE (threads included),
	// from /proc/stat: 0 proves no process could have come and gone
	// unseen.
	Forks uint64
	// NoIO and NoSchedstat count the processes of Processes whose
	// /proc/PID/io or schedstat could not be compared (left at 0).
	NoIO, NoSchedstat int
	// Which optional system counters both samples had.
	HasDisk, HasPressureIO, HasPressureCPU bool
}

// Fill copies the measures into a QE.
func (u *QEUsage) Fill(qe *QE) {
	qe.Classes = u.Classes
	qe.Processes = u.Processes
	qe.Overall = u.Overall
	qe.QueryProcessSeen = u.QueryProcessSeen
	qe.Ephemeral = u.Ephemeral
}

// Diff computes each process's usage between two snapshots, classifies the
// processes by roles and sums the classes. A process in after only is
// Started (all its counters count); a process in before only has Exited:
// its usage is its exit record minus the before sample where the two
// measure the same thing, and without a record it is Unseen (counted in
// Ephemeral). Exit records of processes in neither snapshot are caught
// ephemeral processes: their whole usage counts. A PID whose start time
// changed is one process that exited and one that started.
func Diff(before, after *Snapshot, roles Roles, exits []ExitedProcess) QEUsage {
	c := newClassifier(before, after, roles, exits)
	out := QEUsage{Classes: map[Class]Usage{}}

	records := map[int][]int{} // pid -> indices in exits, in order
	for i, e := range exits {
		records[e.PID] = append(records[e.PID], i)
	}
	used := make([]bool, len(exits))
	takeRecord := func(pid int) (ExitedProcess, bool) {
		for _, i := range records[pid] {
			if !used[i] {
				used[i] = true
				return exits[i], true
			}
		}
		return ExitedProcess{}, false
	}

	pids := make([]int, 0, len(after.Procs)+8)
	for pid := range after.Procs {
		pids = append(pids, pid)
	}
	for pid := range before.Procs {
		if _, ok := after.Procs[pid]; !ok {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)

	for _, pid := range pids {
		b, inB := before.Procs[pid]
		a, inA := after.Procs[pid]
		switch {
		case inB && inA && b.StartTime == a.StartTime:
			out.live(c, b, a)
		case inB && inA:
			out.Reused++
			r, ok := takeRecord(pid)
			out.exited(c, b, r, ok)
			out.started(c, a)
		case inA:
			out.started(c, a)
		default:
			r, ok := takeRecord(pid)
			out.exited(c, b, r, ok)
		}
	}
	for i, e := range exits {
		if !used[i] {
			out.CaughtEphemeral++
			u := e.Usage
			out.add(ProcessUsage{PID: e.PID, Comm: e.Comm, Class: c.class(e.PID), Usage: u,
				Started: true, Exited: true}, true, true)
		}
	}
	slices.SortStableFunc(out.Processes, func(x, y ProcessUsage) int {
		if x.PID != y.PID {
			return x.PID - y.PID
		}
		return x.TID - y.TID
	})
	out.Overall, out.HasDisk, out.HasPressureIO, out.HasPressureCPU = overall(before.System, after.System)
	out.Forks = sat(after.System.Forks, before.System.Forks)
	return out
}

// classifier knows each PID's class.
type classifier struct {
	qpid, qtid int
	own        int
	embedded   bool
	utility    map[int]bool
}

func newClassifier(before, after *Snapshot, roles Roles, exits []ExitedProcess) *classifier {
	c := &classifier{own: roles.Own, embedded: roles.Query.Embedded, qtid: roles.Query.TID,
		qpid: roles.Query.PID, utility: map[int]bool{}}
	if c.own == 0 {
		c.own = os.Getpid()
	}
	if c.embedded {
		c.qpid = c.own
	}
	for _, p := range roles.Utility {
		c.utility[p] = true
	}
	for _, root := range roles.Trees {
		c.utility[root] = true
		for _, s := range []*Snapshot{before, after} {
			for _, p := range Descendants(s, root) {
				c.utility[p] = true
			}
		}
	}
	if len(roles.Trees) > 0 {
		// Exited children of the trees, and their exited children: repeat
		// until nothing is added (the records are in no particular order).
		for grew := true; grew; {
			grew = false
			for _, e := range exits {
				if e.PPID != 0 && !c.utility[e.PID] && (c.utility[e.PPID] || e.PPID == c.qpid) {
					c.utility[e.PID] = true
					grew = true
				}
			}
		}
	}
	return c
}

// class is the class of a whole process; the query process with a TID is
// utility as a whole (live splits out its query thread).
func (c *classifier) class(pid int) Class {
	switch {
	case pid == c.qpid && pid != 0 && c.qtid == 0:
		return Query
	case pid == c.qpid && pid != 0, c.utility[pid]:
		return Utility
	case pid == c.own && !c.embedded:
		return Own
	}
	return Daemon
}

// live accounts a process present in both snapshots.
func (out *QEUsage) live(c *classifier, b, a ProcSample) {
	u, io, sched := processDelta(&b, a)
	pu := ProcessUsage{PID: a.PID, Comm: a.Comm, Class: c.class(a.PID), Usage: u}
	if a.PID != c.qpid || c.qtid == 0 {
		if pu.Class == Query {
			out.QueryProcessSeen = true
		}
		out.add(pu, io, sched)
		return
	}
	// The query process is one thread: split it out of its process.
	tb, okB := b.Threads[c.qtid]
	ta, okA := a.Threads[c.qtid]
	if !okB || !okA || tb.StartTime != ta.StartTime {
		out.add(pu, io, sched) // the thread was not seen: all utility
		return
	}
	out.QueryProcessSeen = true
	q, qio, qsched := delta(&tb, ta)
	rest := u
	sub := func(x *uint64, y uint64) { *x = sat(*x, y) }
	sub(&rest.UserTicks, q.UserTicks)
	sub(&rest.SysTicks, q.SysTicks)
	sub(&rest.MinFlt, q.MinFlt)
	sub(&rest.MajFlt, q.MajFlt)
	if qio {
		sub(&rest.SysCR, q.SysCR)
		sub(&rest.SysCW, q.SysCW)
		sub(&rest.ReadBytes, q.ReadBytes)
		sub(&rest.WriteBytes, q.WriteBytes)
	}
	// The process's per-task counters include the query thread only when
	// they were summed over all threads or are the main thread's and the
	// query thread is the main thread.
	if (b.AllThreads && a.AllThreads) || c.qtid == a.PID {
		sub(&rest.BlkioTicks, q.BlkioTicks)
		sub(&rest.VolCtx, q.VolCtx)
		sub(&rest.NonvolCtx, q.NonvolCtx)
		if qsched {
			sub(&rest.RunNS, q.RunNS)
			sub(&rest.WaitNS, q.WaitNS)
		}
	}
	// Taskstats of the process sum every thread: without the thread's own
	// the rest is unknown.
	if tb.HasTaskstats && ta.HasTaskstats {
		sub(&rest.CPUUS, q.CPUUS)
		sub(&rest.BlkioNS, q.BlkioNS)
	} else {
		rest.CPUUS, rest.BlkioNS = 0, 0
	}
	out.add(ProcessUsage{PID: a.PID, TID: c.qtid, Comm: ta.Comm, Class: Query, Usage: q}, qio, qsched)
	out.add(pu.withUsage(rest), io, sched)
}

func (p ProcessUsage) withUsage(u Usage) ProcessUsage { p.Usage = u; return p }

// started accounts a process in the second snapshot only: everything it
// counted happened since it started, after the first snapshot.
func (out *QEUsage) started(c *classifier, a ProcSample) {
	out.Started++
	u, io, sched := processDelta(nil, a)
	out.add(ProcessUsage{PID: a.PID, Comm: a.Comm, Class: c.class(a.PID), Usage: u, Started: true}, io, sched)
}

// exited accounts a process in the first snapshot only, with its exit
// record when there is one.
func (out *QEUsage) exited(c *classifier, b ProcSample, r ExitedProcess, ok bool) {
	out.Exited++
	if !ok {
		out.Ephemeral++
		out.Unseen = append(out.Unseen, ProcessInfo{PID: b.PID, PPID: b.PPID, Comm: b.Comm})
		return
	}
	u, io, sched := exitDelta(r.Usage, b)
	out.add(ProcessUsage{PID: b.PID, Comm: b.Comm, Class: c.class(b.PID), Usage: u, Exited: true}, io, sched)
}

// add sums one process into its class and lists it if it used anything
// (or matters for the report: the query process, started and exited
// ones).
func (out *QEUsage) add(p ProcessUsage, io, sched bool) {
	s := out.Classes[p.Class]
	s.Add(p.Usage)
	out.Classes[p.Class] = s
	bare := p.Usage
	bare.Fine = false
	if bare == (Usage{}) && p.Class != Query && !p.Started && !p.Exited {
		return
	}
	out.Processes = append(out.Processes, p)
	if !io {
		out.NoIO++
	}
	if !sched {
		out.NoSchedstat++
	}
}

// sat is a - b, or 0 when the counter went backwards (iowait in /proc/stat
// can; a wrongly matched sample would).
func sat(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// delta is one task's usage from sample b to sample a (b nil: since the
// task started). It also says whether the io and schedstat counters were
// comparable; incomparable ones are left 0.
func delta(b *ProcSample, a ProcSample) (u Usage, io, sched bool) {
	var z ProcSample
	if b == nil {
		z = ProcSample{HasIO: true, HasSchedstat: true, HasTaskstats: true}
		b = &z
	}
	u = Usage{
		UserTicks:  sat(a.UTime, b.UTime),
		SysTicks:   sat(a.STime, b.STime),
		BlkioTicks: sat(a.BlkioTicks, b.BlkioTicks),
		MinFlt:     sat(a.MinFlt, b.MinFlt),
		MajFlt:     sat(a.MajFlt, b.MajFlt),
		VolCtx:     sat(a.VolCtx, b.VolCtx),
		NonvolCtx:  sat(a.NonvolCtx, b.NonvolCtx),
	}
	if io = a.HasIO && b.HasIO; io {
		u.SysCR, u.SysCW = sat(a.SysCR, b.SysCR), sat(a.SysCW, b.SysCW)
		u.ReadBytes, u.WriteBytes = sat(a.ReadBytes, b.ReadBytes), sat(a.WriteBytes, b.WriteBytes)
	}
	if sched = a.HasSchedstat && b.HasSchedstat; sched {
		u.RunNS, u.WaitNS = sat(a.RunNS, b.RunNS), sat(a.WaitNS, b.WaitNS)
	}
	ts := a.HasTaskstats && b.HasTaskstats
	if ts {
		u.CPUUS, u.BlkioNS = sat(a.CPUUS, b.CPUUS), sat(a.BlkioNS, b.BlkioNS)
	}
	u.Fine = sched || ts
	return u, io, sched
}

// processDelta is delta for a whole process, with the per-task counters
// (field 42, context switches, schedstat: the main thread's only in the
// process's files) replaced by the sum over its threads when every thread
// was sampled both times. Threads that ended between the snapshots are
// missing from that sum: /proc keeps no trace of them.
func processDelta(b *ProcSample, a ProcSample) (Usage, bool, bool) {
	u, io, sched := delta(b, a)
	if !a.AllThreads || (b != nil && !b.AllThreads) {
		return u, io, sched
	}
	var sum Usage
	tsched := true
	for tid, t := range a.Threads {
		var tu Usage
		var ts bool
		if b != nil {
			if bt, ok := b.Threads[tid]; ok && bt.StartTime == t.StartTime {
				tu, _, ts = delta(&bt, t)
			} else {
				tu, _, ts = delta(nil, t)
			}
		} else {
			tu, _, ts = delta(nil, t)
		}
		sum.Add(tu)
		tsched = tsched && ts
	}
	u.BlkioTicks, u.VolCtx, u.NonvolCtx = sum.BlkioTicks, sum.VolCtx, sum.NonvolCtx
	if tsched {
		u.RunNS, u.WaitNS = sum.RunNS, sum.WaitNS
	}
	return u, io, sched && tsched
}

// exitDelta is an exit record's totals minus the first snapshot's sample,
// field by field where both measure the same thing: the /proc/PID/io
// counters only if they were read, schedstat's run and wait only if read
// (taskstats' cpu_run_real_total and cpu_delay_total are the same kernel
// counters), taskstats CPU and block-I/O delay only if the sample had
// them; other fields are left 0. The per-task counters of a
// multi-threaded process are summed over its threads when they were all
// sampled, else the main thread's are all there is to subtract.
func exitDelta(r Usage, b ProcSample) (u Usage, io, sched bool) {
	base, _, _ := processDelta(nil, b) // b's counters since it started
	u = Usage{
		UserTicks:  sat(r.UserTicks, base.UserTicks),
		SysTicks:   sat(r.SysTicks, base.SysTicks),
		BlkioTicks: sat(r.BlkioTicks, base.BlkioTicks),
		MinFlt:     sat(r.MinFlt, base.MinFlt),
		MajFlt:     sat(r.MajFlt, base.MajFlt),
		VolCtx:     sat(r.VolCtx, base.VolCtx),
		NonvolCtx:  sat(r.NonvolCtx, base.NonvolCtx),
	}
	if io = b.HasIO; io {
		u.SysCR, u.SysCW = sat(r.SysCR, base.SysCR), sat(r.SysCW, base.SysCW)
		u.ReadBytes, u.WriteBytes = sat(r.ReadBytes, base.ReadBytes), sat(r.WriteBytes, base.WriteBytes)
	}
	if sched = b.HasSchedstat && r.Fine; sched {
		u.RunNS, u.WaitNS = sat(r.RunNS, base.RunNS), sat(r.WaitNS, base.WaitNS)
	}
	ts := b.HasTaskstats && r.Fine
	if ts {
		u.CPUUS, u.BlkioNS = sat(r.CPUUS, base.CPUUS), sat(r.BlkioNS, base.BlkioNS)
	}
	u.Fine = sched || ts
	return u, io, sched
}

// overall is the difference of two system samples; the optional counters
// only when both samples had them.
func overall(b, a SystemSample) (o Overall, disk, psiIO, psiCPU bool) {
	o = Overall{
		User: sat(a.CPU.User, b.CPU.User), Nice: sat(a.CPU.Nice, b.CPU.Nice),
		System: sat(a.CPU.System, b.CPU.System), Idle: sat(a.CPU.Idle, b.CPU.Idle),
		IOWait: sat(a.CPU.IOWait, b.CPU.IOWait), IRQ: sat(a.CPU.IRQ, b.CPU.IRQ),
		SoftIRQ: sat(a.CPU.SoftIRQ, b.CPU.SoftIRQ), Steal: sat(a.CPU.Steal, b.CPU.Steal),
		Guest: sat(a.CPU.Guest, b.CPU.Guest), GuestNice: sat(a.CPU.GuestNice, b.CPU.GuestNice),
	}
	if disk = a.HasDisk && b.HasDisk; disk {
		o.DiskReadBytes, o.DiskWriteBytes = sat(a.Disk.ReadBytes, b.Disk.ReadBytes), sat(a.Disk.WriteBytes, b.Disk.WriteBytes)
		o.DiskReadMS, o.DiskWriteMS = sat(a.Disk.ReadMS, b.Disk.ReadMS), sat(a.Disk.WriteMS, b.Disk.WriteMS)
	}
	if psiIO = a.HasPressureIO && b.HasPressureIO; psiIO {
		o.PressureIOSomeUS = sat(a.PressureIOSomeUS, b.PressureIOSomeUS)
	}
	if psiCPU = a.HasPressureCPU && b.HasPressureCPU; psiCPU {
		o.PressureCPUSomeUS = sat(a.PressureCPUSomeUS, b.PressureCPUSomeUS)
	}
	return o, disk, psiIO, psiCPU
}

// dbmsComm maps the comm of a database server's processes (at most 15
// bytes: longer names are cut by the kernel) to its engine: the engines
// dbgauge does not measure. Those it measures register their own
// (dbms.Adapter's Processes).
var dbmsComm = map[string]struct {
	dbms   string
	helper bool
}{
	"mongod":          {"MongoDB", false},
	"redis-server":    {"Redis", false},
	"clickhouse-serv": {"ClickHouse", false},
	"clickhouse":      {"ClickHouse", false},
	"mserver5":        {"MonetDB", false},
	"monetdbd":        {"MonetDB", true},
	"sqlservr":        {"SQL Server", false},
	"db2sysc":         {"Db2", false},
	"cockroach":       {"CockroachDB", false},
	"oracle":          {"Oracle", false},
}

// DBMSOf says which database engine a comm belongs to ("" for none).
func DBMSOf(comm string) (engine string, helper bool) {
	if p, ok := dbms.ServerProcess(comm); ok {
		return p.Product, p.Helper
	}
	if d, ok := dbmsComm[comm]; ok {
		return d.dbms, d.helper
	}
	if strings.HasPrefix(comm, "ora_") { // Oracle's background processes
		return "Oracle", false
	}
	return "", false
}

// ForeignDBMS lists, sorted by PID, the processes of snap whose comm is a
// database server's (or its wrapper's) and that are not in ours (the
// engine under test's processes: pass its tree, Descendants included).
func ForeignDBMS(snap *Snapshot, ours []int) []ProcessInfo {
	var out []ProcessInfo
	for pid, s := range snap.Procs {
		if slices.Contains(ours, pid) {
			continue
		}
		if d, h := DBMSOf(s.Comm); d != "" {
			out = append(out, ProcessInfo{PID: pid, PPID: s.PPID, Comm: s.Comm, DBMS: d, Helper: h})
		}
	}
	slices.SortFunc(out, func(x, y ProcessInfo) int { return x.PID - y.PID })
	return out
}
