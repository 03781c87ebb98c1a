package sysinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// NetDev is one interface of /proc/net/dev: bytes received and sent.
type NetDev struct {
	Name    string
	RxBytes uint64
	TxBytes uint64
}

// ParseNetDev reads /proc/net/dev: two header lines, then per interface
// "name: 8 receive columns, 8 transmit columns".
func ParseNetDev(data []byte) ([]NetDev, error) {
	var out []NetDev
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.Contains(name, "|") {
			continue // header lines
		}
		name = strings.TrimSpace(name)
		f := strings.Fields(rest)
		if len(f) < 16 {
			return nil, fmt.Errorf("%w: /proc/net/dev: %s has %d columns, want 16", ErrParse, name, len(f))
		}
		rx, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: /proc/net/dev: %s receive bytes %q", ErrParse, name, f[0])
		}
		tx, err := strconv.ParseUint(f[8], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: /proc/net/dev: %s transmit bytes %q", ErrParse, name, f[8])
		}
		out = append(out, NetDev{Name: name, RxBytes: rx, TxBytes: tx})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("/proc/net/dev: %w", err)
	}
	return out, nil
}
