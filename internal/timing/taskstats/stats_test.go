package taskstats

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/mdlayher/netlink"
)

// rawStats builds a struct taskstats of n bytes with a distinct value in
// every decoded field, at the offsets worked out by hand from the kernel's
// header (see stats.go), and the value the decoder must give for each.
func rawStats(t *testing.T, n int, version uint16) ([]byte, Stats) {
	t.Helper()
	b := make([]byte, n)
	ne := binary.NativeEndian
	ne.PutUint16(b[0:], version)
	ne.PutUint32(b[4:], 3<<8) // ac_exitcode
	b[8] = flagGroup | 0x01   // ac_flag: AGROUP|AFORK
	b[9] = 0xfb               // ac_nice: -5
	for i, off := range []int{16, 24, 32, 40, 48, 56, 64, 72} {
		ne.PutUint64(b[off:], uint64(1000+i)) // the delay block, 1000..1007
	}
	copy(b[80:], "postgres\x00garbage")
	b[112] = 1                        // ac_sched
	ne.PutUint32(b[120:], 26)         // ac_uid
	ne.PutUint32(b[124:], 27)         // ac_gid
	ne.PutUint32(b[128:], 4242)       // ac_pid
	ne.PutUint32(b[132:], 1)          // ac_ppid
	ne.PutUint32(b[136:], 1700000000) // ac_btime
	for i, off := range []int{144, 152, 160, 168, 176} {
		ne.PutUint64(b[off:], uint64(2000+i)) // etime, utime, stime, minflt, majflt
	}
	ne.PutUint64(b[184:], 9999) // coremem: not decoded, must not leak anywhere
	for i, off := range []int{216, 224, 232, 240, 248, 256, 264, 272, 280} {
		ne.PutUint64(b[off:], uint64(3000+i)) // I/O and context switches
	}
	want := Stats{
		Version: version, ExitCode: 768, Flag: 0x21, Nice: -5,
		CPUCount: 1000, CPUDelayNS: 1001, BlkioCount: 1002, BlkioDelayNS: 1003,
		SwapinCount: 1004, SwapinDelayNS: 1005, CPURunRealNS: 1006, CPURunVirtualNS: 1007,
		Comm: "postgres", Sched: 1, UID: 26, GID: 27, PID: 4242, PPID: 1, BTime: 1700000000,
		ETimeUS: 2000, UTimeUS: 2001, STimeUS: 2002, MinFlt: 2003, MajFlt: 2004,
		ReadChar: 3000, WriteChar: 3001, ReadSyscalls: 3002, WriteSyscalls: 3003,
		ReadBytes: 3004, WriteBytes: 3005, CancelledWriteBytes: 3006, NVCSW: 3007, NIVCSW: 3008,
	}
	if n >= 372 {
		ne.PutUint32(b[368:], 4240) // ac_tgid
		if version >= 12 {
			want.TGID = 4240
		}
	}
	return b, want
}

func TestParseStatsLayout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		version uint16
	}{
		{"version 16 (kernel 6.18)", 432, 16},
		{"version 13", 416, 13},
		{"version 8", 328, 8},
		{"version 0, as in an exit's TGID record", 416, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, want := rawStats(t, tc.n, tc.version)
			got, err := parseStats(b)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("parseStats:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseStatsShort(t *testing.T) {
	if _, err := parseStats(make([]byte, 287)); err == nil {
		t.Fatal("287 bytes (short of nivcsw) decoded without error")
	}
}

func TestStatsHelpers(t *testing.T) {
	s := Stats{UTimeUS: 1500, STimeUS: 250, Flag: 0x21}
	if s.CPUTimeUS() != 1750 {
		t.Errorf("CPUTimeUS = %d, want 1750", s.CPUTimeUS())
	}
	if !s.GroupExit() {
		t.Error("GroupExit false with AGROUP set")
	}
	s.Flag = 0x01
	if s.GroupExit() {
		t.Error("GroupExit true without AGROUP")
	}
}

// exitMessage builds the attributes of an exit notification of the last
// thread of a two-thread process: padding, AGGR_PID, AGGR_TGID.
func exitMessage(t *testing.T) []byte {
	t.Helper()
	pidStats, _ := rawStats(t, 432, 16)
	tgidStats := make([]byte, 432) // version 0, delay sums only, ac_tgid 0
	binary.NativeEndian.PutUint64(tgidStats[40:], 777)
	nest := func(idType uint16, id uint32, stats []byte) []byte {
		ae := netlink.NewAttributeEncoder()
		ae.Uint32(idType, id)
		ae.Bytes(typeStats, stats)
		b, err := ae.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ae := netlink.NewAttributeEncoder()
	ae.Bytes(typeNull, nil)
	ae.Bytes(typeAggrPID, nest(typePID, 4242, pidStats))
	ae.Bytes(typeAggrTGID, nest(typeTGID, 4240, tgidStats))
	b, err := ae.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseRecords(t *testing.T) {
	recs, err := parseRecords(exitMessage(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2 (padding skipped)", len(recs))
	}
	p, g := recs[0], recs[1]
	if p.Kind != KindPID || p.ID != 4242 || p.Stats.PID != 4242 || p.Stats.TGID != 4240 || p.Stats.Comm != "postgres" {
		t.Errorf("pid record: %v %d pid=%d tgid=%d comm=%q", p.Kind, p.ID, p.Stats.PID, p.Stats.TGID, p.Stats.Comm)
	}
	if g.Kind != KindTGID || g.ID != 4240 || g.Stats.TGID != 4240 || g.Stats.BlkioDelayNS != 777 || g.Stats.Version != 0 {
		t.Errorf("tgid record: %v %d tgid=%d blkio=%d version=%d", g.Kind, g.ID, g.Stats.TGID, g.Stats.BlkioDelayNS, g.Stats.Version)
	}
	if KindPID.String() != "pid" || KindTGID.String() != "tgid" {
		t.Errorf("Kind strings %q %q", KindPID, KindTGID)
	}
}

func TestParseRecordsMissingStats(t *testing.T) {
	inner := netlink.NewAttributeEncoder()
	inner.Uint32(typePID, 1)
	ib, _ := inner.Encode()
	ae := netlink.NewAttributeEncoder()
	ae.Bytes(typeAggrPID, ib)
	b, _ := ae.Encode()
	if _, err := parseRecords(b); err == nil {
		t.Fatal("aggregate without stats decoded without error")
	}
}

func TestCheckCPUList(t *testing.T) {
	for in, want := range map[string]string{"0-1\n": "0-1", "0": "0", "0,2-3,8-11\n": "0,2-3,8-11"} {
		got, err := checkCPUList(in)
		if err != nil || got != want {
			t.Errorf("checkCPUList(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "\n", "0-", "-1", "a-b", "0,,1", "0 1"} {
		if got, err := checkCPUList(in); err == nil {
			t.Errorf("checkCPUList(%q) = %q, want an error", in, got)
		}
	}
}

func TestParseNetlinkDrops(t *testing.T) {
	text := `sk               Eth Pid        Groups   Rmem     Wmem     Dump  Locks    Drops    Inode
000000008d578835 0   0          00000000 0        0        0     2        0        4
00000000aa000001 16  3000       00000000 0        0        0     2        5        100
00000000aa000002 16  2147483650 00000000 4096     0        0     2        47       101
00000000aa000003 4   2147483650 00000000 0        0        0     2        9        102
`
	if d, ok := parseNetlinkDrops(strings.NewReader(text), 16, 2147483650); !ok || d != 47 {
		t.Errorf("drops = %d, %v; want 47, true", d, ok)
	}
	if d, ok := parseNetlinkDrops(strings.NewReader(text), 16, 3000); !ok || d != 5 {
		t.Errorf("drops = %d, %v; want 5, true", d, ok)
	}
	if _, ok := parseNetlinkDrops(strings.NewReader(text), 16, 1); ok {
		t.Error("found a socket that is not there")
	}
	if _, ok := parseNetlinkDrops(strings.NewReader("sk Eth Pid\n0 16 1\n"), 16, 1); ok {
		t.Error("found drops without a Drops column")
	}
}
