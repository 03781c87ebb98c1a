package taskstats

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Stats is one struct taskstats as the kernel sent it, decoded.
type Stats struct {
	// Version of the kernel's struct. 0 in the AGGR_TGID record of an exit
	// notification, which the kernel fills with delay sums only.
	Version uint16

	PID, PPID int // ac_pid, ac_ppid (0 in a TGID query's answer)
	// TGID is ac_tgid (struct version 12 and later); for a TGID record the
	// client fills it with the thread group it asked about if the kernel
	// left it 0.
	TGID     int
	UID, GID uint32
	Comm     string // ac_comm, the task's name (empty in a TGID answer)
	Flag     uint8  // ac_flag: AFORK, ASU, ACORE, AXSIG, AGROUP
	Nice     int8   // ac_nice
	Sched    uint8  // ac_sched, the scheduling policy
	// ExitCode is ac_exitcode, the raw wait status (exit(3) gives 3<<8).
	ExitCode uint32

	BTime   uint32 // ac_btime: start, seconds since 1970
	ETimeUS uint64 // ac_etime: elapsed wall time, µs
	UTimeUS uint64 // ac_utime: user CPU time, µs
	STimeUS uint64 // ac_stime: system CPU time, µs
	MinFlt  uint64
	MajFlt  uint64

	// Delay accounting (zero unless delay accounting is on: the
	// kernel.task_delayacct sysctl or the delayacct boot option).
	CPUCount, CPUDelayNS          uint64 // waiting for a CPU while runnable
	BlkioCount, BlkioDelayNS      uint64 // waiting for synchronous block I/O
	SwapinCount, SwapinDelayNS    uint64 // waiting for swap-in
	CPURunRealNS, CPURunVirtualNS uint64 // CPU running time

	// I/O accounting. The kernel rounds all seven down to a multiple of
	// 1024 (KB_MASK in kernel/tsacct.c), the syscall counts included.
	ReadChar, WriteChar                        uint64 // bytes through read/write syscalls
	ReadSyscalls, WriteSyscalls                uint64
	ReadBytes, WriteBytes, CancelledWriteBytes uint64 // storage I/O

	NVCSW, NIVCSW uint64 // voluntary, involuntary context switches
}

// CPUTimeUS is user plus system CPU time in microseconds.
func (s *Stats) CPUTimeUS() uint64 { return s.UTimeUS + s.STimeUS }

// flagGroup is AGROUP from linux/acct.h: the task was the last of its
// thread group.
const flagGroup = 0x20

// GroupExit says whether this exit record is of the last task of its
// process, i.e. whether the process ended with it.
func (s *Stats) GroupExit() bool { return s.Flag&flagGroup != 0 }

// Offsets of struct taskstats fields (x86-64 and every 64-bit ABI alike:
// the struct uses only fixed-size types). The holes are the struct's own
// alignment padding: ac_exitcode is at 4 (after 2 bytes of padding),
// cpu_count is __attribute__((aligned(8))) and so starts at 16, not 10;
// ac_sched and ac_uid are aligned(8) too (112 and 120, after ac_pad[3] and 4
// bytes of padding), and ac_etime is aligned(8) (144, after 4 bytes of
// padding behind ac_btime). Checked against gcc's offsetof on the kernel
// headers and against live answers (ac_pid equals the pid asked for).
const (
	offVersion             = 0   // __u16
	offExitcode            = 4   // __u32
	offFlag                = 8   // __u8
	offNice                = 9   // __u8
	offCPUCount            = 16  // __u64, aligned(8)
	offCPUDelayTotal       = 24  //
	offBlkioCount          = 32  //
	offBlkioDelayTotal     = 40  //
	offSwapinCount         = 48  //
	offSwapinDelayTotal    = 56  //
	offCPURunRealTotal     = 64  //
	offCPURunVirtualTotal  = 72  // version 1 ends at 80
	offComm                = 80  // char[32]
	commLen                = 32  //
	offSched               = 112 // __u8, aligned(8)
	offUID                 = 120 // __u32, aligned(8)
	offGID                 = 124 //
	offPID                 = 128 //
	offPPID                = 132 //
	offBTime               = 136 // __u32
	offETime               = 144 // __u64, aligned(8)
	offUTime               = 152 //
	offSTime               = 160 //
	offMinFlt              = 168 //
	offMajFlt              = 176 //
	offReadChar            = 216 // after coremem, virtmem, hiwater_rss, hiwater_vm
	offWriteChar           = 224 //
	offReadSyscalls        = 232 //
	offWriteSyscalls       = 240 //
	offReadBytes           = 248 //
	offWriteBytes          = 256 //
	offCancelledWriteBytes = 264 //
	offNVCSW               = 272 //
	offNIVCSW              = 280 // ends at 288
	offTGID                = 368 // __u32, version 12

	// minStatsLen covers every field decoded unconditionally; the kernel
	// has sent at least this much since version 8 (328 bytes).
	minStatsLen = offNIVCSW + 8
	// tgidVersion is the struct version that added ac_tgid.
	tgidVersion = 12
)

// parseStats decodes a struct taskstats. Newer kernels append fields, so a
// longer b is fine; a shorter one is an error.
func parseStats(b []byte) (Stats, error) {
	if len(b) < minStatsLen {
		return Stats{}, fmt.Errorf("taskstats: struct of %d bytes, need at least %d", len(b), minStatsLen)
	}
	ne := binary.NativeEndian
	u64 := func(off int) uint64 { return ne.Uint64(b[off:]) }
	u32 := func(off int) uint32 { return ne.Uint32(b[off:]) }
	comm := b[offComm : offComm+commLen]
	if i := bytes.IndexByte(comm, 0); i >= 0 {
		comm = comm[:i]
	}
	s := Stats{
		Version:             ne.Uint16(b[offVersion:]),
		ExitCode:            u32(offExitcode),
		Flag:                b[offFlag],
		Nice:                int8(b[offNice]),
		CPUCount:            u64(offCPUCount),
		CPUDelayNS:          u64(offCPUDelayTotal),
		BlkioCount:          u64(offBlkioCount),
		BlkioDelayNS:        u64(offBlkioDelayTotal),
		SwapinCount:         u64(offSwapinCount),
		SwapinDelayNS:       u64(offSwapinDelayTotal),
		CPURunRealNS:        u64(offCPURunRealTotal),
		CPURunVirtualNS:     u64(offCPURunVirtualTotal),
		Comm:                string(comm),
		Sched:               b[offSched],
		UID:                 u32(offUID),
		GID:                 u32(offGID),
		PID:                 int(u32(offPID)),
		PPID:                int(u32(offPPID)),
		BTime:               u32(offBTime),
		ETimeUS:             u64(offETime),
		UTimeUS:             u64(offUTime),
		STimeUS:             u64(offSTime),
		MinFlt:              u64(offMinFlt),
		MajFlt:              u64(offMajFlt),
		ReadChar:            u64(offReadChar),
		WriteChar:           u64(offWriteChar),
		ReadSyscalls:        u64(offReadSyscalls),
		WriteSyscalls:       u64(offWriteSyscalls),
		ReadBytes:           u64(offReadBytes),
		WriteBytes:          u64(offWriteBytes),
		CancelledWriteBytes: u64(offCancelledWriteBytes),
		NVCSW:               u64(offNVCSW),
		NIVCSW:              u64(offNIVCSW),
	}
	if s.Version >= tgidVersion && len(b) >= offTGID+4 {
		s.TGID = int(u32(offTGID))
	}
	return s, nil
}
