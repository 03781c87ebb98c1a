package timing

import (
	"bufio"
	"bytes"
	"errors"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dbgauge/dbgauge/internal/fuzzseed"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// Fuzz targets of the /proc parsers: whatever the text (a kernel of
// another version, a torn read, a comm full of parentheses), each parser
// returns a value or an error wrapping ErrProcParse, and never panics.

// Realistic /proc texts, as a Linux 6.x kernel prints them.
const (
	seedStat      = "2417 (postgres) S 2409 2417 2417 0 -1 4194560 1203 0 1 0 11 7 0 0 20 0 1 0 4468 224669696 7424 18446744073709551615 1 1 0 0 0 0 0 4194304 27207 0 0 0 17 1 0 0 3 0 0 0 0 0 0 0 0 0 0\n"
	seedStatComm  = "77 (a b) (c)) R 1 77 77 0 -1 4194304 90 0 0 0 2 1 0 0 20 0 4 0 100 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 9 4 5 0 0 0 0 0 0 0 0\n"
	seedStatus    = "Name:\tpostgres\nState:\tS (sleeping)\nThreads:\t1\nvoluntary_ctxt_switches:\t150\nnonvoluntary_ctxt_switches:\t7\n"
	seedIO        = "rchar: 2012\nwchar: 0\nsyscr: 6\nsyscw: 0\nread_bytes: 4096\nwrite_bytes: 0\ncancelled_write_bytes: 0\n"
	seedSchedstat = "118945471 21420323 652\n"
	seedPressure  = "some avg10=0.00 avg60=0.19 avg300=3.66 total=678394709\nfull avg10=0.00 avg60=0.11 avg300=1.53 total=386340265\n"
)

// addFiles adds the files of ../sysinfo/testdata (captured /proc texts)
// whose names start with prefix as seeds.
func addFiles(f *testing.F, prefix string) {
	fuzzseed.Files(f, filepath.Join("..", "sysinfo", "testdata", prefix+"*"))
}

func wantProcParse(t *testing.T, what string, b []byte, err error) {
	t.Helper()
	if !errors.Is(err, ErrProcParse) {
		t.Fatalf("%s(%q): error %v, want one wrapping ErrProcParse", what, b, err)
	}
}

func FuzzParseProcStat(f *testing.F) {
	for _, s := range []string{seedStat, seedStatComm, statLine(42, "new\nline)", 52), statLine(42, "sleep", 43), "42 sleep S 1 2 3\n", "1 () S", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parseProcStat(b)
		if err != nil {
			wantProcParse(t, "parseProcStat", b, err)
			return
		}
		if !bytes.Contains(b, append(append([]byte("("), s.comm...), ')')) {
			t.Fatalf("parseProcStat(%q): comm %q is not between parentheses of the text", b, s.comm)
		}
	})
}

// FuzzProcStatRoundTrip: a stat line the kernel could print, whatever the
// comm (up to 64 bytes, as PR_SET_NAME allows 16 and a kernel thread's
// name is longer), parses back to the fields it was made of.
func FuzzProcStatRoundTrip(f *testing.F) {
	f.Add("postgres", uint64(2409), uint64(11), uint64(7), uint64(3))
	f.Add("a b) (c", uint64(1), uint64(0), uint64(1<<63), uint64(18446744073709551615))
	f.Add("new\nline)", uint64(0), uint64(0), uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, comm string, ppid, utime, stime, blkio uint64) {
		if len(comm) > 64 {
			return
		}
		ppid &= 1<<22 - 1 // pid_max is at most 2^22
		var b bytes.Buffer
		b.WriteString("42 (" + comm + ") S")
		for k := 4; k <= 52; k++ {
			v := uint64(100 + k)
			switch k {
			case 4:
				v = ppid
			case 14:
				v = utime
			case 15:
				v = stime
			case 42:
				v = blkio
			}
			b.WriteString(" " + strconv.FormatUint(v, 10))
		}
		b.WriteString("\n")
		s, err := parseProcStat(b.Bytes())
		if err != nil {
			t.Fatalf("parseProcStat(%q): %v", b.Bytes(), err)
		}
		if string(s.comm) != comm || s.state != 'S' || uint64(s.ppid) != ppid || s.utime != utime || s.stime != stime || s.blkio != blkio {
			t.Fatalf("parseProcStat(%q) = comm %q state %c ppid %d utime %d stime %d blkio %d", b.Bytes(), s.comm, s.state, s.ppid, s.utime, s.stime, s.blkio)
		}
	})
}

func FuzzParseProcStatusIO(f *testing.F) {
	for _, s := range []string{seedStatus, seedIO, "Name:\tx\nnonvoluntary_ctxt_switches:\t7\n", "syscr: 3\n", seedStatus + seedIO} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, err := parseProcStatus(b); err != nil {
			wantProcParse(t, "parseProcStatus", b, err)
		}
		if _, err := parseProcIO(b); err != nil {
			wantProcParse(t, "parseProcIO", b, err)
		}
	})
}

// FuzzParseSchedstat also checks parseUint against strconv.ParseUint.
func FuzzParseSchedstat(f *testing.F) {
	for _, s := range []string{seedSchedstat, "12\n", "0 0 0", "18446744073709551615 18446744073709551616 1", "18446744073709551615"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, err := parseSchedstat(b); err != nil {
			wantProcParse(t, "parseSchedstat", b, err)
		}
		if len(b) <= 20 {
			v, ok := parseUint(b)
			w, err := strconv.ParseUint(string(b), 10, 64)
			if ok != (err == nil) || v != w && ok {
				t.Fatalf("parseUint(%q) = %d, %v; strconv.ParseUint: %d, %v", b, v, ok, w, err)
			}
		}
	})
}

func FuzzParseProcStatCPU(f *testing.F) {
	addFiles(f, "stat.")
	for _, s := range []string{"cpu0 1 2 3 4\n", "cpu  10 1 5 80\nprocesses 12\n", "processes \n", "cpu "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, err := parseProcStatCPU(b); err != nil {
			wantProcParse(t, "parseProcStatCPU", b, err)
		}
	})
}

func FuzzParseDiskTotals(f *testing.F) {
	addFiles(f, "diskstats.")
	f.Add([]byte("   8 0 sda 1 0 10 1 1 0 20 2 0 0 0 0 0 0 0 0 0\n   8 1 sda1 1 0 10 1 1 0 20 2 0 0 0 0 0 0 0 0 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := parseDiskTotals(b)
		if err != nil {
			if !errors.Is(err, sysinfo.ErrParse) && !errors.Is(err, bufio.ErrTooLong) {
				t.Fatalf("parseDiskTotals(%q): error %v, want one wrapping sysinfo.ErrParse", b, err)
			}
			return
		}
		for _, name := range d.Disks {
			if !bytes.Contains(b, []byte(name)) {
				t.Fatalf("parseDiskTotals(%q): disk %q is not in the text", b, name)
			}
		}
	})
}

func FuzzParsePressureSome(f *testing.F) {
	for _, s := range []string{seedPressure, "full avg10=0.00 total=5\n", "some total=", "some avg10=1 total=18446744073709551616\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := parsePressureSome(b); err != nil {
			wantProcParse(t, "parsePressureSome", b, err)
		}
	})
}
