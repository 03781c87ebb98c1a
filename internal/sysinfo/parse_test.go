package sysinfo

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseStat(t *testing.T) {
	cases := []struct {
		name  string
		input []byte
		want  CPUTimes
		bad   bool
	}{
		{"captured", fixture(t, "stat.1"), CPUTimes{User: 288250, System: 48744, Idle: 390563, IOWait: 12909, SoftIRQ: 4913, Steal: 7578}, false},
		{"old kernel, 4 columns", []byte("cpu  10 1 5 80\ncpu0 10 1 5 80\n"), CPUTimes{User: 10, Nice: 1, System: 5, Idle: 80}, false},
		{"not a number", []byte("cpu  10 x 5 80 0\n"), CPUTimes{}, true},
		{"too short", []byte("cpu  10 1\n"), CPUTimes{}, true},
		{"no cpu line", []byte("intr 1 2 3\n"), CPUTimes{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseStat(c.input)
			if c.bad {
				if !errors.Is(err, ErrParse) {
					t.Fatalf("error %v, want one wrapping ErrParse", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestParseDiskstats(t *testing.T) {
	got, err := ParseDiskstats(fixture(t, "diskstats.1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("%d devices, want 10", len(got))
	}
	vda := got[8]
	want := DiskStat{Major: 254, Minor: 0, Name: "vda", ReadsCompleted: 237008, ReadSectors: 10660370, ReadMS: 164580, WritesComplete: 1001696, WriteSectors: 62729136, WriteMS: 284938}
	if vda != want {
		t.Errorf("vda = %+v\nwant  %+v", vda, want)
	}
	// Kernels before 4.18 print 14 columns; fewer is malformed.
	if _, err := ParseDiskstats([]byte("   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n")); err != nil {
		t.Errorf("14 columns refused: %v", err)
	}
	for _, bad := range []string{"   8 0 sda 1 2 3\n", "   8 0 sda 1 2 x 4 5 6 7 8 9 10 11\n"} {
		if _, err := ParseDiskstats([]byte(bad)); !errors.Is(err, ErrParse) {
			t.Errorf("%q: error %v, want ErrParse", bad, err)
		}
	}
}

func TestWholeDisks(t *testing.T) {
	cases := []struct {
		name, fixture string
		want          []string
	}{
		{"virtual machine", "diskstats.1", []string{"vda"}},
		// Partitions (sda1, nvme0n1p2), loop and device-mapper devices are
		// left out, sdaa is a disk of its own, not a partition of sda.
		{"partitions and stacks", "diskstats.partitions", []string{"sda", "nvme0n1", "sdaa", "mmcblk0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			all, err := ParseDiskstats(fixture(t, c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range WholeDisks(all) {
				got = append(got, d.Name)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("whole disks %v, want %v", got, c.want)
			}
		})
	}
}

func TestParseNetDev(t *testing.T) {
	got, err := ParseNetDev(fixture(t, "net_dev.1"))
	if err != nil {
		t.Fatal(err)
	}
	want := []NetDev{{"lo", 5618447211, 5618447211}, {"ifb0", 0, 0}, {"ifb1", 0, 0}, {"eth0", 352681123, 1430886}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"  lo: 1 2 3\n", "  lo: 1 2 3 4 5 6 7 8 y 10 11 12 13 14 15 16\n"} {
		if _, err := ParseNetDev([]byte(bad)); !errors.Is(err, ErrParse) {
			t.Errorf("%q: error %v, want ErrParse", bad, err)
		}
	}
}
