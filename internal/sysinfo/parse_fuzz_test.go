package sysinfo

import (
	"bufio"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/fuzzseed"
)

// Fuzz targets of the /proc parsers: whatever the text, each returns a
// value or an error wrapping ErrParse (or the scanner's "token too long"
// for a line past its buffer), and never panics.

func addFixtures(f *testing.F, prefix string) {
	fuzzseed.Files(f, filepath.Join("testdata", prefix+"*"))
}

func wantParseErr(t *testing.T, what string, b []byte, err error) {
	t.Helper()
	if !errors.Is(err, ErrParse) && !errors.Is(err, bufio.ErrTooLong) {
		t.Fatalf("%s(%q): error %v, want one wrapping ErrParse", what, b, err)
	}
}

// FuzzParseStat covers ParseStat and ParseStatCPUs: the CPU count is the
// number of cpuN lines.
func FuzzParseStat(f *testing.F) {
	addFixtures(f, "stat.")
	for _, s := range []string{"cpu  10 1 5 80\ncpu0 10 1 5 80\n", "cpu  10 x 5 80 0\n", "cpu  10 1\n", "intr 1 2 3\n", "cpu 1 2 3 4\ncpu-1 1\ncpu+2 1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseStat(b)
		if err != nil {
			wantParseErr(t, "ParseStat", b, err)
		}
		c2, n, err2 := ParseStatCPUs(b)
		if err2 != nil {
			wantParseErr(t, "ParseStatCPUs", b, err2)
			return
		}
		if err != nil || c2 != c || n < 1 || n > strings.Count(string(b), "cpu") {
			t.Fatalf("ParseStatCPUs(%q) = %+v, %d; ParseStat %+v, %v", b, c2, n, c, err)
		}
	})
}

// FuzzParseDiskstats also runs WholeDisks on what it parsed: a subset, in
// order.
func FuzzParseDiskstats(f *testing.F) {
	addFixtures(f, "diskstats.")
	f.Add([]byte("   8 0 sda 1 0 10 1 1 0 20 2 0 0 0\n 8 1 sda1 1 0 10 1 1 0 20 2 0 0 0\n 259 0 nvme0n1 1 0 1 1 1 0 1 1 0 0 0\n 259 1 nvme0n1p 1 0 1 1 1 0 1 1 0 0 0\n"))
	f.Add([]byte("8 0 sda 1 2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		all, err := ParseDiskstats(b)
		if err != nil {
			wantParseErr(t, "ParseDiskstats", b, err)
			return
		}
		whole := WholeDisks(all)
		i := 0
		for _, d := range whole {
			for i < len(all) && all[i] != d {
				i++
			}
			if i == len(all) {
				t.Fatalf("WholeDisks of ParseDiskstats(%q) = %+v: not a subsequence of %+v", b, whole, all)
			}
			i++
		}
	})
}

func FuzzParseNetDev(f *testing.F) {
	addFixtures(f, "net_dev.")
	f.Add([]byte("  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"))
	f.Add([]byte("  eth0: 1 2 3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		devs, err := ParseNetDev(b)
		if err != nil {
			wantParseErr(t, "ParseNetDev", b, err)
			return
		}
		for _, d := range devs {
			if strings.ContainsAny(d.Name, "\n|") {
				t.Fatalf("ParseNetDev(%q): interface name %q", b, d.Name)
			}
		}
	})
}
