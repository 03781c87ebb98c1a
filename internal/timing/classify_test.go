package timing

import (
	"os"
	"slices"
	"testing"
)

func snapOf(samples ...ProcSample) *Snapshot {
	s := &Snapshot{Procs: map[int]ProcSample{}}
	for _, p := range samples {
		s.Procs[p.PID] = p
	}
	return s
}

func pidsOf(u QEUsage) []int {
	var out []int
	for _, p := range u.Processes {
		out = append(out, p.PID)
	}
	return out
}

func TestDiffClasses(t *testing.T) {
	// A PostgreSQL-like tree: postmaster 10 with backend 11 (the query
	// process) and checkpointer 12; an autovacuum worker 13 starts during
	// the QE and 14 comes and goes (caught by its exit record); dbgauge is
	// 20, cron 30 and 40 an ephemeral daemon.
	before := snapOf(
		ProcSample{PID: 10, PPID: 1, StartTime: 1, Comm: "postgres", UTime: 100, STime: 50},
		ProcSample{PID: 11, PPID: 10, StartTime: 2, Comm: "postgres", UTime: 200, STime: 20, BlkioTicks: 5},
		ProcSample{PID: 12, PPID: 10, StartTime: 2, Comm: "postgres", UTime: 10},
		ProcSample{PID: 20, PPID: 1, StartTime: 3, Comm: "dbgauge", UTime: 30},
		ProcSample{PID: 30, PPID: 1, StartTime: 1, Comm: "cron", UTime: 1},
	)
	after := snapOf(
		ProcSample{PID: 10, PPID: 1, StartTime: 1, Comm: "postgres", UTime: 101, STime: 50},
		ProcSample{PID: 11, PPID: 10, StartTime: 2, Comm: "postgres", UTime: 260, STime: 25, BlkioTicks: 7},
		ProcSample{PID: 12, PPID: 10, StartTime: 2, Comm: "postgres", UTime: 10},
		ProcSample{PID: 13, PPID: 10, StartTime: 9, Comm: "postgres", UTime: 4, STime: 1},
		ProcSample{PID: 20, PPID: 1, StartTime: 3, Comm: "dbgauge", UTime: 33},
		ProcSample{PID: 30, PPID: 1, StartTime: 1, Comm: "cron", UTime: 3},
	)
	exits := []ExitedProcess{
		{PID: 40, PPID: 1, Comm: "sh", Usage: Usage{UserTicks: 5}},
		{PID: 14, PPID: 10, Comm: "postgres", Usage: Usage{UserTicks: 2}},
	}
	u := Diff(before, after, Roles{Query: QueryProcess{PID: 11}, Trees: []int{10}, Own: 20}, exits)

	want := map[Class]Usage{
		Query:   {UserTicks: 60, SysTicks: 5, BlkioTicks: 2},
		Utility: {UserTicks: 1 + 4 + 2, SysTicks: 1},
		Own:     {UserTicks: 3},
		Daemon:  {UserTicks: 2 + 5},
	}
	for c, w := range want {
		if u.Classes[c] != w {
			t.Errorf("%s: %+v, want %+v", c, u.Classes[c], w)
		}
	}
	if !u.QueryProcessSeen || u.CaughtEphemeral != 2 || u.Ephemeral != 0 || u.Started != 1 || u.Exited != 0 {
		t.Errorf("seen %v caught %d ephemeral %d started %d exited %d", u.QueryProcessSeen, u.CaughtEphemeral, u.Ephemeral, u.Started, u.Exited)
	}
	// 12 used nothing and is not listed.
	if got := pidsOf(u); !slices.Equal(got, []int{10, 11, 13, 14, 20, 30, 40}) {
		t.Errorf("listed %v", got)
	}

	// Without the tree only the listed utility processes are utility.
	u = Diff(before, after, Roles{Query: QueryProcess{PID: 11}, Utility: []int{10, 12}, Own: 20}, exits)
	if got := u.Classes[Utility]; got != (Usage{UserTicks: 1}) {
		t.Errorf("utility without the tree: %+v", got)
	}
	if got := u.Classes[Daemon]; got != (Usage{UserTicks: 2 + 5 + 4 + 2, SysTicks: 1}) {
		t.Errorf("daemons without the tree: %+v", got)
	}

	// Embedded: dbgauge's process is the query process, Own stays empty.
	u = Diff(before, after, Roles{Query: QueryProcess{Embedded: true}, Own: 20}, nil)
	if u.Classes[Query] != (Usage{UserTicks: 3}) || u.Classes[Own] != (Usage{}) || !u.QueryProcessSeen {
		t.Errorf("embedded: query %+v own %+v seen %v", u.Classes[Query], u.Classes[Own], u.QueryProcessSeen)
	}

	// A query process that is not there is not seen.
	if u = Diff(before, after, Roles{Query: QueryProcess{PID: 99}, Own: 20}, nil); u.QueryProcessSeen {
		t.Error("absent query process seen")
	}
}

func TestDiffOwnDefaultsToSelf(t *testing.T) {
	me := os.Getpid()
	u := Diff(snapOf(ProcSample{PID: me, UTime: 1}), snapOf(ProcSample{PID: me, UTime: 4}), Roles{}, nil)
	if u.Classes[Own] != (Usage{UserTicks: 3}) {
		t.Errorf("own: %+v", u.Classes)
	}
}

func TestDiffPIDReuse(t *testing.T) {
	before := snapOf(ProcSample{PID: 100, StartTime: 5, UTime: 50, Comm: "old"})
	after := snapOf(ProcSample{PID: 100, StartTime: 9, UTime: 7, Comm: "new"})

	u := Diff(before, after, Roles{Own: 1}, nil)
	if u.Reused != 1 || u.Started != 1 || u.Exited != 1 || u.Ephemeral != 1 || len(u.Unseen) != 1 || u.Unseen[0].Comm != "old" {
		t.Errorf("without record: reused %d started %d exited %d ephemeral %d unseen %+v", u.Reused, u.Started, u.Exited, u.Ephemeral, u.Unseen)
	}
	if u.Classes[Daemon] != (Usage{UserTicks: 7}) {
		t.Errorf("without record: daemons %+v, want the new process's 7 ticks", u.Classes[Daemon])
	}

	u = Diff(before, after, Roles{Own: 1}, []ExitedProcess{{PID: 100, Comm: "old", Usage: Usage{UserTicks: 60}}})
	if u.Ephemeral != 0 || u.CaughtEphemeral != 0 || u.Classes[Daemon] != (Usage{UserTicks: 10 + 7}) {
		t.Errorf("with record: ephemeral %d caught %d daemons %+v", u.Ephemeral, u.CaughtEphemeral, u.Classes[Daemon])
	}
	if len(u.Processes) != 2 || !u.Processes[0].Exited || u.Processes[0].Usage.UserTicks != 10 ||
		!u.Processes[1].Started || u.Processes[1].Usage.UserTicks != 7 {
		t.Errorf("processes %+v", u.Processes)
	}
}

func TestDiffQueryThread(t *testing.T) {
	// mariadbd 50: thread 51 runs the session; 52 ends during the QE and
	// 53 starts.
	th := func(tid int, start, u, s, blkio, vol uint64) ProcSample {
		return ProcSample{PID: 50, TID: tid, StartTime: start, UTime: u, STime: s, BlkioTicks: blkio, VolCtx: vol}
	}
	before := snapOf(ProcSample{PID: 50, StartTime: 7, Comm: "mariadbd", UTime: 1000, STime: 100, BlkioTicks: 1, VolCtx: 10,
		AllThreads: true, Threads: map[int]ProcSample{
			50: th(50, 7, 10, 0, 1, 10), 51: th(51, 8, 500, 50, 3, 100), 52: th(52, 9, 490, 50, 0, 5)}})
	after := snapOf(ProcSample{PID: 50, StartTime: 7, Comm: "mariadbd", UTime: 1100, STime: 110, BlkioTicks: 1, VolCtx: 12,
		AllThreads: true, Threads: map[int]ProcSample{
			50: th(50, 7, 10, 0, 1, 12), 51: th(51, 8, 590, 58, 6, 130), 53: th(53, 20, 3, 0, 2, 4)}})
	roles := Roles{Query: QueryProcess{PID: 50, TID: 51}, Own: 1}

	u := Diff(before, after, roles, nil)
	// Process: 100 user, 10 system; per-task counters summed over the
	// threads: blkio 0+3+2 = 5, voluntary switches 2+30+4 = 36.
	if q := u.Classes[Query]; q != (Usage{UserTicks: 90, SysTicks: 8, BlkioTicks: 3, VolCtx: 30}) {
		t.Errorf("query thread %+v", q)
	}
	if r := u.Classes[Utility]; r != (Usage{UserTicks: 10, SysTicks: 2, BlkioTicks: 2, VolCtx: 6}) {
		t.Errorf("rest of the process %+v", r)
	}
	if !u.QueryProcessSeen || len(u.Processes) != 2 || u.Processes[0].TID != 0 || u.Processes[1].TID != 51 {
		t.Errorf("seen %v processes %+v", u.QueryProcessSeen, u.Processes)
	}

	// Only the query thread sampled: the process's per-task counters are
	// its main thread's, which is not the query thread: nothing to take
	// out of them.
	one := func(s *Snapshot) *Snapshot {
		p := s.Procs[50]
		p.AllThreads, p.Threads = false, map[int]ProcSample{51: p.Threads[51]}
		return snapOf(p)
	}
	u = Diff(one(before), one(after), roles, nil)
	if r := u.Classes[Utility]; r != (Usage{UserTicks: 10, SysTicks: 2, BlkioTicks: 0, VolCtx: 2}) {
		t.Errorf("rest with one thread sampled %+v", r)
	}

	// The query thread missing from a snapshot: not seen, all utility.
	gone := one(after)
	p := gone.Procs[50]
	p.Threads = nil
	gone.Procs[50] = p
	u = Diff(one(before), gone, roles, nil)
	if u.QueryProcessSeen || u.Classes[Query] != (Usage{}) || u.Classes[Utility].UserTicks != 100 {
		t.Errorf("thread gone: seen %v classes %+v", u.QueryProcessSeen, u.Classes)
	}
}

func TestDiffExitRecordWhereComparable(t *testing.T) {
	b := ProcSample{PID: 60, StartTime: 3, UTime: 10, STime: 5, MinFlt: 100, SysCR: 7, HasIO: true,
		RunNS: 1000, WaitNS: 100, HasSchedstat: true}
	rec := ExitedProcess{PID: 60, Usage: Usage{UserTicks: 15, SysTicks: 6, MinFlt: 130, SysCR: 9,
		RunNS: 4000, WaitNS: 300, CPUUS: 210000, BlkioNS: 5, Fine: true}}
	u := Diff(snapOf(b), snapOf(), Roles{Own: 1}, []ExitedProcess{rec})
	// CPUUS and BlkioNS: the sample had no taskstats to subtract.
	want := Usage{UserTicks: 5, SysTicks: 1, MinFlt: 30, SysCR: 2, RunNS: 3000, WaitNS: 200, Fine: true}
	if len(u.Processes) != 1 || u.Processes[0].Usage != want || !u.Processes[0].Exited {
		t.Errorf("exit usage %+v, want %+v", u.Processes, want)
	}

	b.HasIO, b.HasTaskstats, b.CPUUS = false, true, 200000
	u = Diff(snapOf(b), snapOf(), Roles{Own: 1}, []ExitedProcess{rec})
	want = Usage{UserTicks: 5, SysTicks: 1, MinFlt: 30, RunNS: 3000, WaitNS: 200, CPUUS: 10000, BlkioNS: 5, Fine: true}
	if got := u.Processes[0].Usage; got != want || u.NoIO != 1 {
		t.Errorf("exit usage %+v (no io %d), want %+v", got, u.NoIO, want)
	}
}

func TestDiffFineFromTaskstats(t *testing.T) {
	b := snapOf(ProcSample{PID: 70, StartTime: 1, UTime: 1, HasSchedstat: true, RunNS: 10})
	a := snapOf(ProcSample{PID: 70, StartTime: 1, UTime: 2, HasSchedstat: true, RunNS: 25})
	b.AddTaskstats(70, 0, 1000, 50)
	a.AddTaskstats(70, 0, 1400, 80)
	if a.AddTaskstats(71, 0, 1, 1) {
		t.Error("taskstats added to a missing process")
	}
	u := Diff(b, a, Roles{Query: QueryProcess{PID: 70}, Own: 1}, nil)
	if q := u.Classes[Query]; q != (Usage{UserTicks: 1, RunNS: 15, CPUUS: 400, BlkioNS: 30, Fine: true}) {
		t.Errorf("query %+v", q)
	}
}

func TestOverall(t *testing.T) {
	b := SystemSample{CPU: CPUTicks{User: 100, Nice: 1, System: 40, Idle: 500, IOWait: 50, Steal: 2, Guest: 3},
		Forks: 1000, Disk: DiskTotals{ReadBytes: 512, WriteBytes: 1024, ReadMS: 1, WriteMS: 2}, HasDisk: true,
		PressureIOSomeUS: 10, HasPressureIO: true, PressureCPUSomeUS: 7, HasPressureCPU: true}
	a := SystemSample{CPU: CPUTicks{User: 130, Nice: 1, System: 45, Idle: 520, IOWait: 40, Steal: 2, Guest: 3},
		Forks: 1004, Disk: DiskTotals{ReadBytes: 2048, WriteBytes: 1024, ReadMS: 4, WriteMS: 2}, HasDisk: true,
		PressureIOSomeUS: 30, HasPressureIO: true, PressureCPUSomeUS: 9}
	u := Diff(&Snapshot{Procs: map[int]ProcSample{}, System: b}, &Snapshot{Procs: map[int]ProcSample{}, System: a}, Roles{Own: 1}, nil)
	// iowait went backwards (it can on a tickless kernel): 0, not a wrap.
	want := Overall{User: 30, System: 5, Idle: 20, DiskReadBytes: 1536, DiskReadMS: 3, PressureIOSomeUS: 20}
	if u.Overall != want || u.Forks != 4 || !u.HasDisk || !u.HasPressureIO || u.HasPressureCPU {
		t.Errorf("overall %+v forks %d disk %v psi io %v cpu %v, want %+v", u.Overall, u.Forks, u.HasDisk, u.HasPressureIO, u.HasPressureCPU, want)
	}
}

func TestForeignDBMS(t *testing.T) {
	snap := snapOf(
		ProcSample{PID: 5, PPID: 1, Comm: "postgres"},
		ProcSample{PID: 6, PPID: 5, Comm: "postgres"},
		ProcSample{PID: 7, PPID: 1, Comm: "mysqld_safe"},
		ProcSample{PID: 8, PPID: 7, Comm: "mariadbd"},
		ProcSample{PID: 9, PPID: 1, Comm: "fbguard"},
		ProcSample{PID: 10, PPID: 9, Comm: "firebird"},
		ProcSample{PID: 11, PPID: 1, Comm: "psql"},
		ProcSample{PID: 12, PPID: 1, Comm: "ora_pmon_orcl"},
		ProcSample{PID: 13, PPID: 1, Comm: "postgresql"},
	)
	got := ForeignDBMS(snap, []int{5, 6})
	want := []ProcessInfo{
		{PID: 7, PPID: 1, Comm: "mysqld_safe", DBMS: "MySQL", Helper: true},
		{PID: 8, PPID: 7, Comm: "mariadbd", DBMS: "MariaDB"},
		{PID: 9, PPID: 1, Comm: "fbguard", DBMS: "Firebird", Helper: true},
		{PID: 10, PPID: 9, Comm: "firebird", DBMS: "Firebird"},
		{PID: 12, PPID: 1, Comm: "ora_pmon_orcl", DBMS: "Oracle"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestForeignDBMSOnRealProcess(t *testing.T) {
	child := startNamed(t, "mysqld", "30").Process.Pid
	snap := takeSnapshot(t, SnapshotOptions{})
	found := func(ours []int) bool {
		return slices.ContainsFunc(ForeignDBMS(snap, ours), func(p ProcessInfo) bool {
			return p.PID == child && p.DBMS == "MySQL" && !p.Helper
		})
	}
	if !found(nil) {
		t.Error("a process named mysqld is not a foreign DBMS")
	}
	if found([]int{child}) {
		t.Error("our own mysqld listed as foreign")
	}
}
