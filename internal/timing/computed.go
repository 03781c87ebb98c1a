package timing

import "time"

// The computed time (docs/ttp.md §3, step 4, seed 002 eq. 1-2): the query
// process's CPU time plus its block-I/O delay, less half the machine's
// IOWait time. In an IOWait tick every running process waits on I/O; with
// little utility and daemon I/O there are two of them, the query process
// and another, so half of those ticks are charged to the query (§8.5).
const ioWaitShare = 0.5

// TickComputedMS is the computed time of a QE as the paper defines it:
// (qp u + qp s + qp blkio - 0.5 x overall iowait) x 10 ms.
func TickComputedMS(qe QE) float64 {
	qp := qe.Classes[Query]
	ticks := float64(qp.UserTicks+qp.SysTicks+qp.BlkioTicks) - ioWaitShare*float64(qe.Overall.IOWait)
	return ticks * TickMS
}

// FineComputedMS is the same formula from the query process's finer
// measures (docs/ttp.md §4): CPU time from schedstat (the scheduler's
// sum_exec_runtime, ns) or, when schedstat gave none, from taskstats;
// block-I/O delay from taskstats (ns). taskstats' ac_utime and ac_stime
// are in µs but move in jiffies (4 ms at HZ=250 here): measured on this
// machine, an embedded SQLite query of 0.7 ms read 4 ms from them and
// 0.7 ms from schedstat. /proc/stat has no finer IOWait than ticks, so
// that term stays in ticks. ok is false when the fine measures were not
// read.
func FineComputedMS(qe QE) (ms float64, ok bool) {
	qp := qe.Classes[Query]
	if !qp.Fine {
		return 0, false
	}
	cpu := float64(qp.RunNS) / 1e6
	if qp.RunNS == 0 {
		cpu = float64(qp.CPUUS) / 1e3
	}
	return cpu + float64(qp.BlkioNS)/1e6 - ioWaitShare*float64(qe.Overall.IOWait)*TickMS, true
}

// MeasuredMS is the wall-clock time of a QE in milliseconds.
func MeasuredMS(qe QE) float64 { return float64(qe.Measured) / float64(time.Millisecond) }

// mtTicks is ceil(mt/10) of the predicates: the measured time rounded up
// to whole ticks.
func mtTicks(d time.Duration) int64 {
	const tick = TickMS * time.Millisecond
	if d <= 0 {
		return 0
	}
	return int64((d + tick - 1) / tick)
}

// cpuTicks is u+s of a usage; ioTicks adds the block-I/O delay (the
// predicates' "u+s+blkio").
func cpuTicks(u Usage) int64 { return int64(u.UserTicks + u.SysTicks) }
func ioTicks(u Usage) int64  { return cpuTicks(u) + int64(u.BlkioTicks) }

// ctxSwitches is the query process's voluntary plus involuntary switches.
func ctxSwitches(u Usage) int64 { return int64(u.VolCtx + u.NonvolCtx) }
