package sysinfo

import (
	"errors"
	"os"
	"testing"
)

func TestParseStatCPUs(t *testing.T) {
	c, n, err := ParseStatCPUs(fixture(t, "stat.1"))
	if err != nil || n != 2 {
		t.Fatalf("%d CPUs, %v; want 2", n, err)
	}
	// cpu  288250 0 48744 390563 12909 0 4913 7578: busy is all but idle
	// (390563) and iowait (12909), steal included.
	if b, tot := c.Busy(), c.Total(); b != 288250+48744+4913+7578 || tot != b+390563+12909 {
		t.Errorf("busy %d of %d", b, tot)
	}
	if _, _, err := ParseStatCPUs([]byte("cpu  10 1 5 80\n")); !errors.Is(err, ErrParse) {
		t.Errorf("no per-CPU lines: %v", err)
	}
}

func TestParseProcCPU(t *testing.T) {
	// A comm with spaces and parentheses; fields 3..22, then more.
	line := "4242 (a (b) c) S 77 4242 4242 0 -1 4194560 10 0 0 0 150 50 30 20 20 0 4 0 99999 1000 50 18446744073709551615 0 0\n"
	p, err := ParseProcCPU([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := ProcCPU{PID: 4242, PPID: 77, Comm: "a (b) c", StartTime: 99999, UTime: 150, STime: 50, CUTime: 30, CSTime: 20}
	if p != want || p.Ticks() != 250 {
		t.Errorf("got %+v (%d ticks), want %+v (250)", p, p.Ticks(), want)
	}
	for _, bad := range []string{"4242 a S 77", "4242 (x) S 77 1 1 0 -1 0 0 0 0 0 150 50", "x (y) S 1 1 1 0 -1 0 0 0 0 0 1 1 1 1 0 0 1 0 5"} {
		if _, err := ParseProcCPU([]byte(bad)); !errors.Is(err, ErrParse) {
			t.Errorf("%q: %v, want ErrParse", bad, err)
		}
	}
}

// TreeTicks sums a process and its descendants, nothing else.
func TestTreeTicks(t *testing.T) {
	procs := map[int]ProcCPU{
		1:  {PID: 1, PPID: 0, UTime: 1000},
		10: {PID: 10, PPID: 1, UTime: 6, STime: 2, CUTime: 1, CSTime: 1}, // 10
		11: {PID: 11, PPID: 10, UTime: 5},
		12: {PID: 12, PPID: 11, STime: 2},
		13: {PID: 13, PPID: 1, UTime: 100},
	}
	if ticks, n := TreeTicks(procs, 10); ticks != 17 || n != 3 {
		t.Errorf("tree of 10: %d ticks over %d processes, want 17 over 3", ticks, n)
	}
	if ticks, n := TreeTicks(procs, 99); ticks != 0 || n != 0 {
		t.Errorf("missing root: %d, %d", ticks, n)
	}
}

func TestReadProcCPU(t *testing.T) {
	p, err := ReadProcCPU(os.Getpid())
	if err != nil || p.PPID != os.Getppid() || p.Comm == "" || p.StartTime == 0 {
		t.Fatalf("own process: %+v, %v", p, err)
	}
	all, err := ReadAllProcCPU()
	if err != nil || all[os.Getpid()].PID != os.Getpid() {
		t.Fatalf("all processes lack this one: %v", err)
	}
	if _, err := ReadProcCPU(1 << 30); !errors.Is(err, ErrNoProc) { // above any pid_max
		t.Errorf("no such process: %v", err)
	}
	if _, _, err := ReadMachineCPU(); err != nil {
		t.Error(err)
	}
}
