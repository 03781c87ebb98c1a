package sysinfo

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"time"
)

// Counters is one reading of the kernel's cumulative load counters.
type Counters struct {
	Time  time.Time
	CPU   CPUTimes
	Disks []DiskStat // whole disks only
	Nets  []NetDev
}

// ReadCounters reads /proc/stat, /proc/diskstats and /proc/net/dev.
func ReadCounters() (Counters, error) {
	c := Counters{Time: time.Now()}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return c, err
	}
	if c.CPU, err = ParseStat(b); err != nil {
		return c, err
	}
	if b, err = os.ReadFile("/proc/diskstats"); err != nil {
		return c, err
	}
	disks, err := ParseDiskstats(b)
	if err != nil {
		return c, err
	}
	c.Disks = WholeDisks(disks)
	if b, err = os.ReadFile("/proc/net/dev"); err != nil {
		return c, err
	}
	c.Nets, err = ParseNetDev(b)
	return c, err
}

// CPUPercent is the share of CPU time per state over an interval, all CPUs
// together; the five add up to 100. User includes nice, System includes
// interrupt handling; Steal is time a hypervisor gave to other guests.
type CPUPercent struct {
	User   float64 `json:"user"`
	System float64 `json:"system"`
	IOWait float64 `json:"iowait"`
	Idle   float64 `json:"idle"`
	Steal  float64 `json:"steal"`
}

// DiskDelta is the I/O of one whole disk (or all of them) over an interval.
type DiskDelta struct {
	ReadBytes  int64 `json:"read_bytes"`
	WriteBytes int64 `json:"write_bytes"`
	ReadMS     int64 `json:"read_ms"`
	WriteMS    int64 `json:"write_ms"`
}

// NetDelta is the traffic of one interface (or all of them) over an interval.
type NetDelta struct {
	RxBytes int64 `json:"rx_bytes"`
	TxBytes int64 `json:"tx_bytes"`
}

// Sample is the load over one interval ending at Time: deltas of the
// counters, not totals. Disk and Net are the totals over all whole disks and
// all interfaces (loopback included: local load runs on loopback); Disks and
// Nets hold the same per device.
type Sample struct {
	Time     time.Time            `json:"time"`
	Interval time.Duration        `json:"interval_ns"`
	CPU      CPUPercent           `json:"cpu_percent"`
	Disk     DiskDelta            `json:"disk"`
	Disks    map[string]DiskDelta `json:"disks"`
	Net      NetDelta             `json:"net"`
	Nets     map[string]NetDelta  `json:"nets"`
}

// Delta is the load between two readings. A device present in only one of
// them (hot-plugged, removed) is left out.
func Delta(prev, cur Counters) Sample {
	s := Sample{Time: cur.Time, Interval: cur.Time.Sub(prev.Time), Disks: map[string]DiskDelta{}, Nets: map[string]NetDelta{}}
	s.CPU = cpuPercent(prev.CPU, cur.CPU)
	before := map[string]DiskStat{}
	for _, d := range prev.Disks {
		before[d.Name] = d
	}
	for _, d := range cur.Disks {
		p, ok := before[d.Name]
		if !ok {
			continue
		}
		dd := DiskDelta{
			ReadBytes:  counterDelta(p.ReadSectors, d.ReadSectors) * SectorBytes,
			WriteBytes: counterDelta(p.WriteSectors, d.WriteSectors) * SectorBytes,
			ReadMS:     counterDelta(p.ReadMS, d.ReadMS),
			WriteMS:    counterDelta(p.WriteMS, d.WriteMS),
		}
		s.Disks[d.Name] = dd
		s.Disk.ReadBytes += dd.ReadBytes
		s.Disk.WriteBytes += dd.WriteBytes
		s.Disk.ReadMS += dd.ReadMS
		s.Disk.WriteMS += dd.WriteMS
	}
	nbefore := map[string]NetDev{}
	for _, n := range prev.Nets {
		nbefore[n.Name] = n
	}
	for _, n := range cur.Nets {
		p, ok := nbefore[n.Name]
		if !ok {
			continue
		}
		nd := NetDelta{RxBytes: counterDelta(p.RxBytes, n.RxBytes), TxBytes: counterDelta(p.TxBytes, n.TxBytes)}
		s.Nets[n.Name] = nd
		s.Net.RxBytes += nd.RxBytes
		s.Net.TxBytes += nd.TxBytes
	}
	return s
}

func cpuPercent(prev, cur CPUTimes) CPUPercent {
	d := func(a, b uint64) float64 { return float64(counterDelta(a, b)) }
	user := d(prev.User, cur.User) + d(prev.Nice, cur.Nice)
	system := d(prev.System, cur.System) + d(prev.IRQ, cur.IRQ) + d(prev.SoftIRQ, cur.SoftIRQ)
	iowait, idle, steal := d(prev.IOWait, cur.IOWait), d(prev.Idle, cur.Idle), d(prev.Steal, cur.Steal)
	total := user + system + iowait + idle + steal
	if total == 0 {
		// No tick passed (interval shorter than 1/USER_HZ): nothing known.
		return CPUPercent{}
	}
	return CPUPercent{User: 100 * user / total, System: 100 * system / total, IOWait: 100 * iowait / total, Idle: 100 * idle / total, Steal: 100 * steal / total}
}

// counterDelta is cur - prev for a cumulative counter. A counter that went
// backwards either wrapped at 32 bits (some diskstats fields are unsigned
// int on 32-bit kernels and older ones) or was reset (device re-added,
// driver reloaded): the first is corrected, the second counts as 0, since a
// reset counter's history is unknown and a huge bogus delta would be worse.
// The iowait column is documented to go backwards slightly on some kernels
// (proc(5)); that, too, counts as 0.
func counterDelta(prev, cur uint64) int64 {
	if cur >= prev {
		return clampInt64(cur - prev)
	}
	if prev <= math.MaxUint32 && prev-cur > math.MaxUint32/2 {
		return clampInt64(cur + (1 << 32) - prev)
	}
	return 0
}

func clampInt64(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// Names lists the keys of a per-device map in order, for stable output.
func Names[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// StartSampler reads the counters now and then every `every`, calling out
// with the load of each interval from its own goroutine (out must not
// block for long: a slow out delays the next reading, the interval then
// says so). It returns an error, and starts nothing, when the first
// reading fails (no /proc: not Linux, or a restricted container). A later
// failed reading is skipped; the next sample then spans the longer
// interval. stop (idempotent) ends sampling and returns once out has
// returned for the last time; cancelling ctx ends it too.
func StartSampler(ctx context.Context, every time.Duration, out func(Sample)) (stop func(), err error) {
	if every <= 0 {
		return nil, fmt.Errorf("load sampler: interval %s must be positive", every)
	}
	prev, err := ReadCounters()
	if err != nil {
		return nil, fmt.Errorf("load sampler: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cur, err := ReadCounters()
			if err != nil {
				continue
			}
			out(Delta(prev, cur))
			prev = cur
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }, nil
}
