package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopContext is the context of one dbgauge command: cancelled, with the
// signal as its cause, by Ctrl-C (SIGINT), SIGTERM and SIGHUP. SIGHUP is
// the terminal going away (a dropped ssh session, a closed window): a run
// then ends as after Ctrl-C, keeping what it measured and writing
// results.json, instead of dying of the signal's default with nothing
// written. A SIGHUP that dbgauge's parent ignores stays ignored: a run
// started under nohup keeps running when its terminal closes (Notify
// would catch a signal ignored at start; see signal.Ignored).
//
// SIGPIPE is caught and dropped: a write to standard output or error
// whose reader left (`| head`, a dead `tee`) then fails with EPIPE instead
// of killing dbgauge at once (Go's default for descriptors 1 and 2). A
// run writes its progress and tables there without stopping for their
// failure, so it goes on measuring and writes its run directory, the
// record of the run; a command whose output is its product (generate,
// report's tables) fails with the write's error. Caught, not ignored: an
// ignored signal stays ignored in the processes dbgauge starts (engine
// servers, pg_ctl), a caught one is reset to its default for them.
func stopContext() (context.Context, context.CancelFunc) {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	pipe := make(chan os.Signal, 1) // never read: the signal is dropped
	signal.Notify(pipe, syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), sigs...)
	return ctx, func() {
		stop()
		signal.Stop(pipe)
	}
}
