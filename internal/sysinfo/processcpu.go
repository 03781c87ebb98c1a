package sysinfo

import "syscall"

// ProcessCPU is the user plus system CPU seconds this process has used so
// far (getrusage(2), RUSAGE_SELF: every thread, including the runtime's);
// 0 when the kernel does not say.
func ProcessCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
