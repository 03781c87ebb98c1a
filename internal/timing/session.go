package timing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/timing/taskstats"
)

// Session times the query executions of one engine session by the
// protocol: it knows the query process and the engine's other processes,
// and holds the taskstats client and exit listener.
type Session struct {
	e     dbms.Engine
	url   string
	qp    QueryProcess
	roles Roles
	ts    *taskstats.Client   // nil when taskstats is unavailable
	lis   *taskstats.Listener // nil when the exit listener is unavailable
	// Notes say what could not be used, for the report's deviations.
	Notes  []string
	serial bool  // the engine was made to use one process per query
	cpus   []int // with SetCPUs: where the engine and dbgauge run
}

// SetCPUs pins dbgauge and the engine's processes to cpus, now and after
// every Reattach (a restarted server has new processes).
func (s *Session) SetCPUs(cpus []int) error {
	s.cpus = cpus
	return s.pin()
}

func (s *Session) pin() error {
	if len(s.cpus) == 0 {
		return nil
	}
	pids := []int{os.Getpid()}
	if !s.qp.Embedded {
		pids = append(pids, s.qp.PID)
		pids = append(pids, s.roles.Trees...)
	}
	return Pin(s.cpus, pids...)
}

// Attach finds the session's query process and opens the taskstats client
// and exit listener (each recorded in Notes when unavailable: the protocol
// then runs on /proc alone).
func Attach(ctx context.Context, e dbms.Engine, url string) (*Session, error) {
	s := &Session{e: e, url: url}
	if c, err := taskstats.Open(); err == nil {
		s.ts = c
	} else {
		s.Notes = append(s.Notes, "taskstats unavailable ("+err.Error()+"): no fine-grained block-I/O delay")
	}
	if l, err := taskstats.Listen(); err == nil {
		s.lis = l
	} else {
		s.Notes = append(s.Notes, "taskstats exit listener unavailable ("+err.Error()+"): processes that end during a QE are not accounted")
	}
	if err := s.Reattach(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the taskstats sockets.
func (s *Session) Close() {
	if s.lis != nil {
		s.lis.Close()
		s.lis = nil
	}
	if s.ts != nil {
		s.ts.Close()
		s.ts = nil
	}
}

// QueryProcess is the process (and thread) the session's queries run in.
func (s *Session) QueryProcess() QueryProcess { return s.qp }

// DelayAccounting describes the block-I/O delay measure for the report.
func (s *Session) DelayAccounting() string { return DelayAccountingState() }

// Reattach finds the query process again: after a reconnect (PostgreSQL's
// backend is a new process) or a server restart.
func (s *Session) Reattach(ctx context.Context) error {
	qp, err := FindQueryProcess(ctx, s.e, s.url)
	if err != nil {
		return err
	}
	if sp, ok := s.e.(dbms.SingleProcesser); ok {
		// Helper processes that come and go within a QE (parallel
		// workers) would leave the query process charged with only part
		// of the work: the protocol times one query process, as the
		// paper's engines had.
		note, err := sp.SingleProcess(ctx)
		if err != nil {
			return fmt.Errorf("one process per query: %w", err)
		}
		if !s.serial {
			s.serial = true
			s.Notes = append(s.Notes, note)
		}
	}
	s.qp = qp
	s.roles = Roles{Query: qp, Own: os.Getpid()}
	if !qp.Embedded {
		// The engine's other processes: the query process's own children,
		// and for a server that forks a process per connection
		// (PostgreSQL) its parent's tree, when the parent is the same
		// program (the postmaster).
		s.roles.Trees = []int{qp.PID}
		me, err := ReadProcess(qp.PID)
		if err != nil {
			return fmt.Errorf("query process %d: %w", qp.PID, err)
		}
		if parent, err := ReadProcess(me.PPID); err == nil && parent.Comm == me.Comm {
			s.roles.Utility = append(s.roles.Utility, me.PPID)
			s.roles.Trees = append(s.roles.Trees, me.PPID)
		}
	}
	return s.pin()
}

// Explain returns the plan of query, or "" when the engine cannot show one.
func (s *Session) Explain(ctx context.Context, query string) (string, error) {
	ex, ok := s.e.(dbms.Explainer)
	if !ok {
		return "", nil
	}
	return ex.Explain(ctx, query)
}

// Execute runs query as one QE (seed 002 Fig. 5, steps 3-5): snapshots of
// every process and of the machine, the query with its rows fetched to
// the client, then the machine's snapshot, the exits of processes that
// ended meanwhile, and every process's snapshot again.
func (s *Session) Execute(ctx context.Context, query string) (QE, error) {
	return s.Measure(ctx, func(ctx context.Context) (int64, error) { return s.e.QueryCount(ctx, query) })
}

// Measure is Execute for any statement: run does the work and returns the
// rows. A failing statement is recorded in the QE (Err, TimedOut); the
// error returned is the monitor's own.
func (s *Session) Measure(ctx context.Context, run func(context.Context) (int64, error)) (QE, error) {
	opts := SnapshotOptions{Threads: map[int][]int{s.qp.PID: nil}}
	if s.lis != nil {
		s.lis.Drain() // exits before this QE are not its business
	}
	before, err := TakeSnapshot(opts)
	if err != nil {
		return QE{}, fmt.Errorf("snapshot before the QE: %w", err)
	}
	// The query process's taskstats are read just inside the snapshots,
	// so that the fine measure brackets the execution alone: for an
	// embedded engine the query process is dbgauge's, which also reads
	// /proc for the snapshots.
	tsBefore := s.readTaskstats()
	runBefore, runOK := s.runNS()
	start := time.Now()
	rows, runErr := run(ctx)
	measured := time.Since(start)
	runAfter, runOK2 := s.runNS()
	tsAfter := s.readTaskstats()
	opts.SystemFirst = true
	after, err := TakeSnapshot(opts)
	if err != nil {
		return QE{}, fmt.Errorf("snapshot after the QE: %w", err)
	}
	tsBefore.apply(before)
	tsAfter.apply(after)
	var exits []ExitedProcess
	if s.lis != nil {
		exits = exitedProcesses(s.lis)
	}
	u := Diff(before, after, s.roles, exits)
	if q, ok := u.Classes[Query]; ok && runOK && runOK2 && runAfter >= runBefore {
		// The CPU time read just around the execution, not where the
		// snapshots happened to read it: for an embedded engine the
		// snapshots' own reading of /proc would count.
		q.RunNS = runAfter - runBefore
		u.Classes[Query] = q
	}
	qe := QE{Measured: measured, Rows: rows, Cores: OnlineCPUs()}
	u.Fill(&qe)
	if runErr != nil {
		qe.Err = runErr.Error()
		qe.TimedOut = dbms.Classify(runErr) == dbms.Timeout || errors.Is(runErr, context.DeadlineExceeded)
		qe.Lost = dbms.Classify(runErr).Transient()
	}
	return qe, nil
}

// qpTaskstats are the query process's (and thread's) taskstats figures.
type qpTaskstats struct {
	pid, tid     int
	proc, thread *taskstats.Stats
}

func (s *Session) readTaskstats() qpTaskstats {
	t := qpTaskstats{pid: s.qp.PID, tid: s.qp.TID}
	if s.ts == nil {
		return t
	}
	t.proc, _ = s.ts.TGID(s.qp.PID)
	if s.qp.TID != 0 {
		t.thread, _ = s.ts.PID(s.qp.TID)
	}
	return t
}

// apply adds the figures to a snapshot.
func (t qpTaskstats) apply(snap *Snapshot) {
	if t.proc != nil {
		snap.AddTaskstats(t.pid, 0, t.proc.CPUTimeUS(), t.proc.BlkioDelayNS)
	}
	if t.thread != nil {
		snap.AddTaskstats(t.pid, t.tid, t.thread.CPUTimeUS(), t.thread.BlkioDelayNS)
	}
}

// runNS is the query process's (or thread's) CPU time in ns from its
// CPU-time clock (clock_gettime on the clock clock_getcpuclockid and
// pthread_getcpuclockid name). Unlike schedstat's sum_exec_runtime, which
// a running thread brings up to date only at a tick or a context switch,
// the clock adds the running threads' time up to the moment of reading.
func (s *Session) runNS() (uint64, bool) {
	const sched, perThread = 2, 4 // CPUCLOCK_SCHED, CPUCLOCK_PERTHREAD_MASK
	clock := int32(^s.qp.PID<<3 | sched)
	if s.qp.TID != 0 {
		clock = int32(^s.qp.TID<<3 | sched | perThread)
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, false
	}
	return uint64(ts.Nano()), true
}
