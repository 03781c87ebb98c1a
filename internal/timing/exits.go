package timing

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/timing/taskstats"
)

// exitedProcesses waits until the listener has every exit record up to
// now and turns the records of processes that ended into ExitedProcess
// values: one per process, its threads' records summed (the kernel's
// per-process record carries delay sums only). Threads that ended in a
// process that lives on are left out: /proc's counters of that process
// already include them.
func exitedProcesses(l *taskstats.Listener) []ExitedProcess {
	l.Sync(2 * time.Second) // on a timeout what arrived is still used
	recs := l.Drain()
	byGroup := map[int][]taskstats.Stats{}
	var ended []int
	for _, r := range recs {
		if r.Kind != taskstats.KindPID {
			continue
		}
		tgid := r.Stats.TGID
		if tgid == 0 {
			tgid = r.Stats.PID
		}
		byGroup[tgid] = append(byGroup[tgid], r.Stats)
		if r.Stats.GroupExit() {
			ended = append(ended, tgid)
		}
	}
	var out []ExitedProcess
	for _, tgid := range ended {
		var u Usage
		var last taskstats.Stats
		for _, st := range byGroup[tgid] {
			u.Add(exitUsage(st))
			last = st
		}
		out = append(out, ExitedProcess{PID: tgid, PPID: last.PPID, Comm: last.Comm, Usage: u})
	}
	return out
}

// exitUsage converts a thread's record into Usage's units (ticks of 10 ms
// for the tick-based fields, as /proc gives them).
func exitUsage(st taskstats.Stats) Usage {
	const usPerTick, nsPerTick = TickMS * 1000, TickMS * 1000_000
	return Usage{
		UserTicks: st.UTimeUS / usPerTick, SysTicks: st.STimeUS / usPerTick,
		BlkioTicks: st.BlkioDelayNS / nsPerTick,
		MinFlt:     st.MinFlt, MajFlt: st.MajFlt,
		VolCtx: st.NVCSW, NonvolCtx: st.NIVCSW,
		SysCR: st.ReadSyscalls, SysCW: st.WriteSyscalls,
		ReadBytes: st.ReadBytes, WriteBytes: st.WriteBytes,
		RunNS: st.CPURunRealNS, CPUUS: st.CPUTimeUS(), BlkioNS: st.BlkioDelayNS,
		Fine: true,
	}
}
