package taskstats

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
)

// netlinkGeneric is NETLINK_GENERIC, the protocol column of /proc/net/netlink.
const netlinkGeneric = 16

// socketDrops returns the kernel's count of messages dropped on the netlink
// socket bound to portid (the Drops column of /proc/net/netlink), which is
// exact where ENOBUFS only says "one or more". ok is false when the file
// or the socket's line cannot be read.
func socketDrops(portid uint32) (drops uint64, ok bool) {
	f, err := os.Open("/proc/net/netlink")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	return parseNetlinkDrops(f, netlinkGeneric, portid)
}

// parseNetlinkDrops finds the line of protocol proto and port id portid in
// the text of /proc/net/netlink and returns its Drops column. The columns
// are located by the header line, not by position, since they have changed
// over kernel versions.
func parseNetlinkDrops(r io.Reader, proto int, portid uint32) (uint64, bool) {
	sc := bufio.NewScanner(r)
	if !sc.Scan() {
		return 0, false
	}
	col := map[string]int{}
	for i, h := range strings.Fields(sc.Text()) {
		col[h] = i
	}
	ethCol, ok1 := col["Eth"]
	pidCol, ok2 := col["Pid"]
	dropsCol, ok3 := col["Drops"]
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	want := strconv.FormatUint(uint64(portid), 10)
	wantProto := strconv.Itoa(proto)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) <= max(ethCol, pidCol, dropsCol) || f[ethCol] != wantProto || f[pidCol] != want {
			continue
		}
		d, err := strconv.ParseUint(f[dropsCol], 10, 64)
		return d, err == nil
	}
	return 0, false
}
