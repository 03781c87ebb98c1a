package sysinfo

import (
	"context"
	"math"
	"testing"
	"time"
)

func counters(t *testing.T, n string, at time.Time) Counters {
	t.Helper()
	c := Counters{Time: at}
	var err error
	if c.CPU, err = ParseStat(fixture(t, "stat."+n)); err != nil {
		t.Fatal(err)
	}
	disks, err := ParseDiskstats(fixture(t, "diskstats."+n))
	if err != nil {
		t.Fatal(err)
	}
	c.Disks = WholeDisks(disks)
	if c.Nets, err = ParseNetDev(fixture(t, "net_dev."+n)); err != nil {
		t.Fatal(err)
	}
	return c
}

// Two readings captured one second apart around a 20 MiB direct write.
func TestDeltaOfCapturedReadings(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := Delta(counters(t, "1", t0), counters(t, "2", t0.Add(time.Second)))
	if s.Interval != time.Second || !s.Time.Equal(t0.Add(time.Second)) {
		t.Errorf("interval %s ending %s", s.Interval, s.Time)
	}
	// 213 ticks: user 83, system 12 + softirq 12, idle 96, iowait 10.
	want := CPUPercent{User: 100 * 83.0 / 213, System: 100 * 24.0 / 213, IOWait: 100 * 10.0 / 213, Idle: 100 * 96.0 / 213}
	if !near(s.CPU.User, want.User) || !near(s.CPU.System, want.System) || !near(s.CPU.IOWait, want.IOWait) || !near(s.CPU.Idle, want.Idle) || s.CPU.Steal != 0 {
		t.Errorf("cpu %+v, want %+v", s.CPU, want)
	}
	wantDisk := DiskDelta{ReadBytes: 408 * 512, WriteBytes: 70352 * 512, ReadMS: 4, WriteMS: 140}
	if s.Disk != wantDisk || len(s.Disks) != 1 || s.Disks["vda"] != wantDisk {
		t.Errorf("disk %+v %+v, want %+v for vda alone", s.Disk, s.Disks, wantDisk)
	}
	if s.Net != (NetDelta{RxBytes: 198260, TxBytes: 198260}) || s.Nets["lo"] != s.Net || s.Nets["eth0"] != (NetDelta{}) || len(s.Nets) != 4 {
		t.Errorf("net %+v %+v", s.Net, s.Nets)
	}
}

func TestCounterDelta(t *testing.T) {
	cases := []struct {
		name      string
		prev, cur uint64
		want      int64
	}{
		{"forward", 100, 350, 250},
		{"unchanged", 7, 7, 0},
		{"32-bit wrap", math.MaxUint32 - 99, 50, 150},
		{"reset of a 64-bit counter", 1 << 40, 10, 0},
		{"iowait stepping back", 1000, 998, 0},
	}
	for _, c := range cases {
		if got := counterDelta(c.prev, c.cur); got != c.want {
			t.Errorf("%s: counterDelta(%d, %d) = %d, want %d", c.name, c.prev, c.cur, got, c.want)
		}
	}
}

// A device that appears between readings is not counted from zero.
func TestDeltaSkipsNewDevices(t *testing.T) {
	t0 := time.Now()
	prev := Counters{Time: t0, Nets: []NetDev{{"lo", 10, 10}}}
	cur := Counters{Time: t0.Add(time.Second), Nets: []NetDev{{"lo", 15, 12}, {"veth1", 1 << 30, 1 << 30}},
		Disks: []DiskStat{{Name: "sdb", WriteSectors: 1 << 30}}}
	s := Delta(prev, cur)
	if s.Net != (NetDelta{5, 2}) || len(s.Nets) != 1 || s.Disk != (DiskDelta{}) {
		t.Errorf("net %+v %+v disk %+v", s.Net, s.Nets, s.Disk)
	}
}

// Live: the sampler's arithmetic on this machine's counters, not its timing.
func TestSamplerLive(t *testing.T) {
	got := make(chan Sample, 4)
	stop, err := StartSampler(context.Background(), 100*time.Millisecond, func(s Sample) {
		select {
		case got <- s:
		default:
		}
	})
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	var s Sample
	// An interval shorter than a tick reads all zeros; wait for a real one.
	for deadline := time.After(10 * time.Second); ; {
		select {
		case s = <-got:
		case <-deadline:
			stop()
			t.Fatal("no sample with CPU time in 10 s")
		}
		if s.CPU != (CPUPercent{}) {
			break
		}
	}
	stop()
	stop() // idempotent
	sum := s.CPU.User + s.CPU.System + s.CPU.IOWait + s.CPU.Idle + s.CPU.Steal
	if math.Abs(sum-100) > 1e-6 {
		t.Errorf("CPU percentages %+v add up to %f, want 100", s.CPU, sum)
	}
	for _, v := range []float64{s.CPU.User, s.CPU.System, s.CPU.IOWait, s.CPU.Idle, s.CPU.Steal} {
		if v < 0 || v > 100 {
			t.Errorf("CPU percentage %f out of range in %+v", v, s.CPU)
		}
	}
	if s.Interval <= 0 || s.Disk.ReadBytes < 0 || s.Net.RxBytes < 0 {
		t.Errorf("sample %+v", s)
	}
	if _, ok := s.Nets["lo"]; !ok {
		t.Errorf("loopback missing from %v", Names(s.Nets))
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
