package cli

import (
	"errors"
	"fmt"
	"syscall"
)

// openFilesLimit names the process's limit of open files, and the flags
// that lower the need, on an error of too many open files: a run-time
// limit, not bad input. How many files a session holds depends on the
// engine (a socket; SQLite's file and journal), so it shows only when the
// sessions open. Other errors pass unchanged.
func openFilesLimit(err error, lower string) error {
	if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
		return err
	}
	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	return fmt.Errorf("%w (at most %d open files per process: lower %s, or raise the limit with ulimit -n)", err, lim.Cur, lower)
}
