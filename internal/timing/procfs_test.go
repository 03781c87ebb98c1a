package timing

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// statLine builds a /proc/PID/stat line whose field k (k >= 3) holds
// 100+k, except the state (field 3) and tpgid (field 8, -1 as for a task
// without a terminal).
func statLine(pid int, comm string, fields int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(pid) + " (" + comm + ") S")
	for k := 4; k <= fields; k++ {
		if k == 8 {
			b.WriteString(" -1")
			continue
		}
		b.WriteString(" " + strconv.Itoa(100+k))
	}
	b.WriteString("\n")
	return b.String()
}

func TestParseProcStat(t *testing.T) {
	for _, comm := range []string{"sleep", "a b) c", "x) 1 2 (y", ") )", "new\nline)"} {
		t.Run(comm, func(t *testing.T) {
			s, err := parseProcStat([]byte(statLine(42, comm, 52)))
			if err != nil {
				t.Fatal(err)
			}
			got := []uint64{uint64(s.ppid), s.minflt, s.majflt, s.utime, s.stime, uint64(s.numThreads), s.starttime, s.blkio, s.guest, s.cguest}
			want := []uint64{104, 110, 112, 114, 115, 120, 122, 142, 143, 144}
			if string(s.comm) != comm || s.state != 'S' || !slices.Equal(got, want) {
				t.Errorf("comm %q state %c fields %v, want %q S %v", s.comm, s.state, got, comm, want)
			}
		})
	}
	for name, line := range map[string]string{
		"too few fields": statLine(42, "sleep", 43),
		"no comm":        "42 sleep S 1 2 3\n",
		"bad number":     strings.Replace(statLine(42, "sleep", 52), " 114 ", " 11x ", 1),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parseProcStat([]byte(line)); !errors.Is(err, ErrProcParse) {
				t.Fatalf("error %v, want ErrProcParse", err)
			}
		})
	}
}

func TestParseStatusIOSchedstat(t *testing.T) {
	// nonvoluntary first: "voluntary_ctxt_switches:" is also the tail of
	// the other key and must be matched at a line start only.
	status := "Name:\tx\nnonvoluntary_ctxt_switches:\t7\nvoluntary_ctxt_switches:\t123\n"
	vol, nonvol, err := parseProcStatus([]byte(status))
	if err != nil || vol != 123 || nonvol != 7 {
		t.Errorf("status: %d %d %v, want 123 7", vol, nonvol, err)
	}
	if _, _, err := parseProcStatus([]byte("Name:\tx\nnonvoluntary_ctxt_switches:\t7\n")); !errors.Is(err, ErrProcParse) {
		t.Errorf("status without voluntary: %v, want ErrProcParse", err)
	}

	io := "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\ncancelled_write_bytes: 7\n"
	p, err := parseProcIO([]byte(io))
	if err != nil || p != (procIO{syscr: 3, syscw: 4, readBytes: 5, writeBytes: 6}) {
		t.Errorf("io: %+v %v", p, err)
	}
	if _, err := parseProcIO([]byte("syscr: 3\n")); !errors.Is(err, ErrProcParse) {
		t.Errorf("short io: %v, want ErrProcParse", err)
	}

	run, wait, err := parseSchedstat([]byte("118945471 21420323 652\n"))
	if err != nil || run != 118945471 || wait != 21420323 {
		t.Errorf("schedstat: %d %d %v", run, wait, err)
	}
	if _, _, err := parseSchedstat([]byte("12\n")); !errors.Is(err, ErrProcParse) {
		t.Errorf("short schedstat: %v, want ErrProcParse", err)
	}
}

func TestParseUint(t *testing.T) {
	for in, want := range map[string]uint64{"0": 0, "18446744073709551615": 1<<64 - 1, "42": 42} {
		if v, ok := parseUint(in); !ok || v != want {
			t.Errorf("parseUint(%q) = %d %v", in, v, ok)
		}
	}
	for _, in := range []string{"", "-1", "18446744073709551616", "1a"} {
		if _, ok := parseUint(in); ok {
			t.Errorf("parseUint(%q) accepted", in)
		}
	}
}

func TestParseProcStatCPU(t *testing.T) {
	text := "cpu  874565 3 267923 1143749 60794 1 59414 79887 5 6\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1 2 3\nprocesses 99842\n"
	cpu, forks, err := parseProcStatCPU([]byte(text))
	want := CPUTicks{874565, 3, 267923, 1143749, 60794, 1, 59414, 79887, 5, 6}
	if err != nil || cpu != want || forks != 99842 {
		t.Errorf("got %+v %d %v, want %+v 99842", cpu, forks, err, want)
	}
	if _, _, err := parseProcStatCPU([]byte("cpu0 1 2 3 4\n")); !errors.Is(err, ErrProcParse) {
		t.Errorf("no aggregate line: %v", err)
	}
}

func TestParsePressureSome(t *testing.T) {
	v, err := parsePressureSome([]byte("some avg10=0.00 avg60=0.19 avg300=3.66 total=678394709\nfull avg10=0.00 avg60=0.11 avg300=1.53 total=386340265\n"))
	if err != nil || v != 678394709 {
		t.Errorf("got %d %v", v, err)
	}
	if _, err := parsePressureSome([]byte("full avg10=0.00 total=5\n")); !errors.Is(err, ErrProcParse) {
		t.Errorf("no some line: %v", err)
	}
}

func TestParseDiskTotals(t *testing.T) {
	// Columns: major minor name reads merged sectors ms writes merged
	// sectors ms ... Only sda, nvme0n1 and vda are whole physical disks.
	line := func(name string, rsec, rms, wsec, wms int) string {
		return "   8 0 " + name + " 1 0 " + strconv.Itoa(rsec) + " " + strconv.Itoa(rms) + " 1 0 " +
			strconv.Itoa(wsec) + " " + strconv.Itoa(wms) + " 0 0 0 0 0 0 0 0 0\n"
	}
	text := line("sda", 10, 1, 20, 2) + line("sda1", 10, 1, 20, 2) +
		line("nvme0n1", 100, 10, 200, 20) + line("nvme0n1p1", 50, 5, 100, 10) + line("nvme0n1p2", 50, 5, 100, 10) +
		line("loop0", 1000, 1, 1000, 1) + line("ram0", 1000, 1, 1000, 1) + line("zram0", 1000, 1, 1000, 1) +
		line("dm-0", 1000, 1, 1000, 1) + line("md0", 1000, 1, 1000, 1) +
		line("vda", 1, 1000, 2, 2000)
	got, err := parseDiskTotals([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := DiskTotals{ReadBytes: 111 * 512, WriteBytes: 222 * 512, ReadMS: 1011, WriteMS: 2022}
	if got.ReadBytes != want.ReadBytes || got.WriteBytes != want.WriteBytes || got.ReadMS != want.ReadMS || got.WriteMS != want.WriteMS {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	if !slices.Equal(got.Disks, []string{"sda", "nvme0n1", "vda"}) {
		t.Errorf("disks %v", got.Disks)
	}
}

// startNamed runs /bin/sleep under another name through a symlink: the
// kernel takes a task's comm from the executed file's name.
func startNamed(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink("/bin/sleep", link); err != nil {
		t.Fatal(err)
	}
	return start(t, exec.Command(link, args...))
}

// start starts cmd and kills it at the end of the test.
func start(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

func TestReadProcessCommWithParens(t *testing.T) {
	for _, name := range []string{"a b) c", "x) 1 2 (y"} {
		cmd := startNamed(t, name, "30")
		s, err := ReadProcess(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if s.Comm != name || s.PID != cmd.Process.Pid || s.PPID != os.Getpid() || s.StartTime == 0 {
			t.Errorf("sample %+v, want comm %q, ppid %d", s, name, os.Getpid())
		}
		if !s.HasIO || !s.HasSchedstat {
			t.Errorf("io %v schedstat %v, want both readable for our own child", s.HasIO, s.HasSchedstat)
		}
	}
}

func TestReadProcessGone(t *testing.T) {
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProcess(cmd.Process.Pid); !errors.Is(err, ErrNoProcess) {
		t.Errorf("reaped child: %v, want ErrNoProcess", err)
	}
}

func TestUTimeGrowsForBusyChild(t *testing.T) {
	cmd := start(t, exec.Command("/bin/sh", "-c", "while :; do :; done"))
	first, err := ReadProcess(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// Poll rather than sleep a fixed time: a loaded machine may take long
	// to give the child a tick; the deadline only bounds a broken reader.
	deadline := time.Now().Add(60 * time.Second)
	for {
		s, err := ReadProcess(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if s.UTime > first.UTime && s.RunNS > first.RunNS {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("utime stayed %d (run %d ns) for a busy loop", s.UTime, s.RunNS)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestThreadsOfSelf(t *testing.T) {
	pid := os.Getpid()
	tids, err := ThreadIDs(pid)
	if err != nil {
		t.Fatal(err)
	}
	// A Go program has at least its main thread and sysmon's.
	if len(tids) < 2 || !slices.Contains(tids, pid) {
		t.Fatalf("threads %v of %d", tids, pid)
	}
	for _, tid := range tids {
		s, err := ReadThread(pid, tid)
		if errors.Is(err, ErrNoProcess) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if s.PID != pid || s.TID != tid || s.Comm == "" || !s.HasSchedstat {
			t.Errorf("thread sample %+v", s)
		}
	}
	_, n, err := SumThreadBlkio(pid)
	if err != nil || n < 2 {
		t.Errorf("SumThreadBlkio: %d threads, %v", n, err)
	}
	if _, _, err := SumThreadBlkio(1 << 30); !errors.Is(err, ErrNoProcess) {
		t.Errorf("SumThreadBlkio of no process: %v", err)
	}
}
