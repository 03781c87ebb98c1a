// Package timing is the Tucson Timing Protocol (seed 002, docs/ttp.md):
// per-process and overall snapshots from /proc and taskstats around each
// query execution, the classification of processes, the sanity checks, the
// protocol's five steps, and the computed time.
package timing

import "time"

// TickMS is the length of a clock tick in milliseconds (USER_HZ = 100).
const TickMS = 10

// Class is the role of a process during a query execution.
type Class int

const (
	Daemon  Class = iota // everything else on the machine
	Query                // the process or thread that evaluates the query
	Utility              // the engine's other processes
	Own                  // dbgauge's own process
)

func (c Class) String() string {
	return [...]string{"daemon", "query", "utility", "own"}[c]
}

// Usage is what a process (or a class of processes, summed) consumed
// during one query execution: the difference of two snapshots.
type Usage struct {
	UserTicks, SysTicks uint64 // /proc/PID/stat utime, stime
	BlkioTicks          uint64 // /proc/PID/stat field 42 (delay accounting)
	MinFlt, MajFlt      uint64
	VolCtx, NonvolCtx   uint64 // /proc/PID/status context switches
	SysCR, SysCW        uint64 // /proc/PID/io
	ReadBytes           uint64 // recorded, not used (seed 002 §5)
	WriteBytes          uint64
	// Fine-grained measures: schedstat (run and wait ns) and taskstats
	// (CPU µs, block-I/O delay ns). Fine says whether they were read.
	RunNS, WaitNS uint64
	CPUUS         uint64 // taskstats ac_utime + ac_stime
	BlkioNS       uint64 // taskstats blkio_delay_total
	Fine          bool
}

// Add adds o to u (for summing a class).
func (u *Usage) Add(o Usage) {
	u.UserTicks += o.UserTicks
	u.SysTicks += o.SysTicks
	u.BlkioTicks += o.BlkioTicks
	u.MinFlt += o.MinFlt
	u.MajFlt += o.MajFlt
	u.VolCtx += o.VolCtx
	u.NonvolCtx += o.NonvolCtx
	u.SysCR += o.SysCR
	u.SysCW += o.SysCW
	u.ReadBytes += o.ReadBytes
	u.WriteBytes += o.WriteBytes
	u.RunNS += o.RunNS
	u.WaitNS += o.WaitNS
	u.CPUUS += o.CPUUS
	u.BlkioNS += o.BlkioNS
	u.Fine = u.Fine || o.Fine
}

// Overall is the difference of two /proc/stat cpu lines, in ticks, with
// the disk and pressure cross-checks.
type Overall struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal, Guest, GuestNice uint64
	DiskReadBytes, DiskWriteBytes                                           uint64 // /proc/diskstats
	DiskReadMS, DiskWriteMS                                                 uint64 // /proc/diskstats time reading, writing
	PressureIOSomeUS, PressureCPUSomeUS                                     uint64 // /proc/pressure totals
}

// ProcessUsage is one process's usage during a QE, with its class.
type ProcessUsage struct {
	PID   int
	TID   int // the query thread when the query process is one thread of PID
	Comm  string
	Class Class
	Usage Usage
	// Exited: the process ended during the QE and its usage came from a
	// taskstats exit notification; Started: it was not in the first
	// snapshot.
	Exited, Started bool
}

// QE is one query execution with everything measured around it.
type QE struct {
	Index    int           // 1-based within its Q@C
	Measured time.Duration // wall clock around the execution
	Plan     string        // the plan captured before it
	Rows     int64         // result cardinality
	// Per class sums (Own is dbgauge's process; for an embedded engine the
	// query process is dbgauge's own and Own is left empty).
	Classes map[Class]Usage
	// Processes are the ones that used anything (for the report).
	Processes []ProcessUsage
	Overall   Overall
	// QueryProcessSeen: the query process was in both snapshots.
	QueryProcessSeen bool
	// Ephemeral counts processes that started and ended between the
	// snapshots and were not caught by the exit listener.
	Ephemeral int
	TimedOut  bool
	Err       string
	// Lost: the statement failed because the session or the server went
	// away (a transient class: the connection lost or refused, the server
	// shutting down). It is no answer of the query, and the session is
	// gone; the protocol's caller ends the unit rather than dropping the
	// QE and going on. Not stored: such a QE ends its Q@C.
	Lost bool `json:"-"`
	// Cores is the number of online CPUs whose ticks Overall sums. The
	// paper ran on one (maxcpus=1); on more, the checks that compare the
	// machine's ticks with the wall clock allow Cores x ceil(mt/10).
	Cores int
}

// QueryProcess names the process (and optionally the thread) that
// evaluates the queries of a session.
type QueryProcess struct {
	PID int
	// TID, when not 0, is the thread of PID that runs the session (MariaDB
	// with performance_schema): the query measures are read from
	// /proc/PID/task/TID and the other threads count as utility.
	TID int
	// Embedded: the engine runs inside dbgauge's own process.
	Embedded bool
	// How the process was found, for the report.
	How string
}
