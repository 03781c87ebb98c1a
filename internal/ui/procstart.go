package ui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// errProcStat says /proc/PID/stat did not read as proc(5) describes it.
var errProcStat = errors.New("malformed /proc/PID/stat")

// procStart is the start time of process pid (in clock ticks since boot,
// field 22 of /proc/PID/stat) and whether it is a zombie: with the pid it
// names one process for the life of the machine, so that a later
// dbgauge ui never takes another process that got the pid of an ended
// run for that run. ok is false when no such process lives.
func procStart(pid int) (start uint64, zombie, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false, false
	}
	start, state, err := parseProcStart(b)
	if err != nil {
		return 0, false, false
	}
	return start, state == 'Z', true
}

// parseProcStart reads the state (field 3) and the start time (field 22)
// of a /proc/PID/stat line. The command (field 2) is in parentheses and
// may hold spaces and parentheses itself: the fields after it follow its
// last ')' (fs/proc/array.c, do_task_stat).
func parseProcStart(b []byte) (start uint64, state byte, err error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("%w: no command in parentheses", errProcStat)
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3
	if len(f) < 20 || len(f[0]) != 1 {
		return 0, 0, fmt.Errorf("%w: %d fields after the command", errProcStat, len(f))
	}
	start, err = strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("%w: start time %q", errProcStat, f[19])
	}
	return start, f[0][0], nil
}
