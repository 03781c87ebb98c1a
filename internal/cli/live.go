package cli

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// withLive gives a run its live stream and its viewers' requests: ctx is
// the run's context, which a viewer's abort cancels as Ctrl-C does;
// unitStops says the experiment can stop between its units (its kind has
// them), else a stop is an abort. end closes the stream once the run
// has written its results: h is their header, nil when the run returned
// none. Every experiment command runs through it, in the one place it
// runs the experiment.
func withLive(ctx context.Context, pr *progress.Printer, unitStops bool) (context.Context, *experiment.Live, func(h *results.Header, err error)) {
	ctx, cancel := context.WithCancelCause(ctx)
	lv := experiment.NewLive(pr, cancel, unitStops)
	return ctx, lv, func(h *results.Header, err error) {
		switch {
		case h != nil:
			lv.End(h.Complete, h.Error)
		case err != nil:
			lv.End(false, err.Error())
		default:
			lv.End(false, "")
		}
		cancel(nil)
	}
}
