package sysinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// DiskStat is one line of /proc/diskstats. The kernel counts sectors of 512
// bytes whatever the device's real sector size (Documentation/admin-guide/
// iostats.rst), so bytes are sectors x 512.
type DiskStat struct {
	Major, Minor   uint32
	Name           string
	ReadSectors    uint64
	ReadMS         uint64 // time spent reading, summed over requests
	WriteSectors   uint64
	WriteMS        uint64
	ReadsCompleted uint64
	WritesComplete uint64
}

// SectorBytes is the unit of the sector counters of /proc/diskstats.
const SectorBytes = 512

// ParseDiskstats reads every line of /proc/diskstats (14 columns up to
// kernel 4.18, then 18, then 20; only the first 11 are used).
func ParseDiskstats(data []byte) ([]DiskStat, error) {
	var out []DiskStat
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 14 {
			return nil, fmt.Errorf("%w: /proc/diskstats: %d columns in line %q, want at least 14", ErrParse, len(f), sc.Text())
		}
		var n [11]uint64
		for i := range n {
			if i == 2 {
				continue // the device name
			}
			v, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: /proc/diskstats: %s column %d %q", ErrParse, f[2], i+1, f[i])
			}
			n[i] = v
		}
		out = append(out, DiskStat{
			Major: uint32(n[0]), Minor: uint32(n[1]), Name: f[2],
			ReadsCompleted: n[3], ReadSectors: n[5], ReadMS: n[6],
			WritesComplete: n[7], WriteSectors: n[9], WriteMS: n[10],
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("/proc/diskstats: %w", err)
	}
	return out, nil
}

// virtualPrefixes name block devices that are not disks (loop, RAM disks,
// compressed swap in RAM, optical) or that stack on other disks (device
// mapper, software RAID): counting those too would count an I/O twice.
var virtualPrefixes = []string{"loop", "ram", "zram", "dm-", "md", "sr", "fd", "nbd"}

// WholeDisks keeps the physical whole disks: not a partition (a partition's
// name extends its disk's name, sda1 of sda, nvme0n1p1 of nvme0n1, and the
// disk is listed in the same file) and not a virtual or stacked device.
func WholeDisks(all []DiskStat) []DiskStat {
	names := map[string]bool{}
	for _, d := range all {
		names[d.Name] = true
	}
	var out []DiskStat
	for _, d := range all {
		if isVirtual(d.Name) || isPartition(d.Name, names) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func isVirtual(name string) bool {
	for _, p := range virtualPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func isPartition(name string, names map[string]bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		if names[name[:i]] {
			rest := strings.TrimPrefix(name[i:], "p")
			_, err := strconv.Atoi(rest)
			return err == nil
		}
	}
	return false
}
