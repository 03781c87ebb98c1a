package taskstats

import (
	"fmt"
	"os"
	"strings"
)

// possibleCPUsPath lists every CPU the kernel may ever bring online, in the
// kernel's cpulist format ("0-1", "0-3,8-11").
const possibleCPUsPath = "/sys/devices/system/cpu/possible"

// possibleCPUs returns the cpulist of every possible CPU, to be passed as is
// in TASKSTATS_CMD_ATTR_REGISTER_CPUMASK (the kernel parses the same
// format with cpulist_parse). See the package comment for why all of them.
func possibleCPUs() (string, error) {
	b, err := os.ReadFile(possibleCPUsPath)
	if err != nil {
		return "", fmt.Errorf("taskstats: %w", err)
	}
	return checkCPUList(string(b))
}

// checkCPUList trims s and makes sure it looks like a cpulist, so that a
// garbled file gives an error here rather than EINVAL from the kernel.
func checkCPUList(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("taskstats: empty CPU list in %s", possibleCPUsPath)
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isDigits(lo) || (isRange && !isDigits(hi)) {
			return "", fmt.Errorf("taskstats: bad CPU list %q in %s", s, possibleCPUsPath)
		}
	}
	return s, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
