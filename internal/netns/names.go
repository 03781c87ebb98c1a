package netns

import (
	"fmt"
	"strconv"
	"strings"
)

// pidDigits is how many base-36 digits a pid takes in a name: Linux pids
// stay below 2^22 (PID_MAX_LIMIT), and 36^5 > 2^22.
const pidDigits = 5

// maxPrefix and maxNodes keep every name within the kernel's interface name
// limit (IFNAMSIZ-1 = 15): prefix + 5 pid digits + 1 counter + "v" + 3 digits.
// maxNodes also keeps 10+i a host address of the /24.
const (
	maxPrefix = 5
	maxNodes  = 200
)

// base is the part every name of one Net starts with: the caller's prefix,
// the pid of the process that made it, and a counter character.
type base string

func newBase(prefix string, pid, seq int) base {
	return base(fmt.Sprintf("%s%0*s%s", prefix, pidDigits, strconv.FormatInt(int64(pid), 36), strconv.FormatInt(int64(seq%36), 36)))
}

func (b base) bridge() string         { return string(b) + "br" }
func (b base) namespace(i int) string { return string(b) + "n" + strconv.Itoa(i) }
func (b base) veth(i int) string      { return string(b) + "v" + strconv.Itoa(i) }

// checkPrefix refuses a prefix that would make names too long or that could
// be read back ambiguously (only lower-case letters, so the pid digits that
// follow start at a known place).
func checkPrefix(prefix string) error {
	if prefix == "" || len(prefix) > maxPrefix {
		return fmt.Errorf("netns: prefix %q must have 1 to %d letters", prefix, maxPrefix)
	}
	for _, r := range prefix {
		if r < 'a' || r > 'z' {
			return fmt.Errorf("netns: prefix %q must be lower-case letters a-z only", prefix)
		}
	}
	return nil
}

// ownerPID reads back the pid from a name this package makes with prefix:
// prefix, pid digits, counter, then "br", or "n" or "v" and a number. ok is
// false for any other name, which is then never touched.
func ownerPID(prefix, name string) (pid int, ok bool) {
	rest, found := strings.CutPrefix(name, prefix)
	if !found || len(rest) < pidDigits+2 {
		return 0, false
	}
	p, err := strconv.ParseInt(rest[:pidDigits], 36, 32)
	if err != nil || p <= 0 || !isBase36(rest[pidDigits]) {
		return 0, false
	}
	role := rest[pidDigits+1:]
	if role != "br" {
		num, isNum := strings.CutPrefix(role, "n")
		if !isNum {
			num, isNum = strings.CutPrefix(role, "v")
		}
		if n, err := strconv.Atoi(num); !isNum || err != nil || n < 1 || strconv.Itoa(n) != num {
			return 0, false
		}
	}
	return int(p), true
}

func isBase36(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' }
