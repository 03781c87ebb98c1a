package timing

import (
	"fmt"
	"os"
	"strings"
)

const delayacctSysctl = "/proc/sys/kernel/task_delayacct"

// EnableDelayAccounting switches the kernel's delay accounting on (Linux
// 5.14 and later leave it off by default; without it the block-I/O delay
// of /proc/PID/stat field 42 and of taskstats reads 0). It reports whether
// it was off and is now on: processes started before were not counting,
// so a server dbgauge manages should then be restarted.
func EnableDelayAccounting() (switched bool, err error) {
	b, err := os.ReadFile(delayacctSysctl)
	if err != nil {
		return false, err
	}
	if strings.TrimSpace(string(b)) == "1" {
		return false, nil
	}
	if err := os.WriteFile(delayacctSysctl, []byte("1\n"), 0); err != nil {
		return false, fmt.Errorf("switch delay accounting on: %w", err)
	}
	return true, nil
}

// DelayAccountingState describes delay accounting for the report.
func DelayAccountingState() string {
	b, err := os.ReadFile(delayacctSysctl)
	switch {
	case err != nil:
		return "unavailable (" + err.Error() + "): block-I/O delay is not measured"
	case strings.TrimSpace(string(b)) == "1":
		return "on (kernel.task_delayacct=1)"
	case os.Geteuid() != 0:
		return "off (kernel.task_delayacct=0, and switching it on needs root): block-I/O delay reads 0"
	default:
		return "off (kernel.task_delayacct=0): block-I/O delay reads 0"
	}
}
