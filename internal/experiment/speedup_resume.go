package experiment

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// A speedup run's unit is a point: one query at one degree of
// parallelism, memory or page size, its warm-up and its timed
// repetitions, journalled whole. When a run is resumed, the relations are
// loaded and organised again (a page size's database created again) and
// every completed point is taken back from the journal; the others are
// measured. A query's constants come from the run's seed and its
// organisation (speedupQueries), the same at every point and in every
// part of a run.

// speedupUnit names q's point at x of the part variable.
func speedupUnit(variable string, q speedupQuery, x int64) string {
	return fmt.Sprintf("%s %s at %d", variable, q.label(), x)
}

// restorePoint takes a completed point back from a resumed run's journal:
// the last one journalled for it (a try that failed comes before it).
func (r *speedupRun) restorePoint(unit string) (results.SpeedupPoint, bool) {
	if r.done == nil || !r.units.completed(unit) {
		return results.SpeedupPoint{}, false
	}
	pts := results.UnitEntries[results.SpeedupPointEntry](r.done, unit, results.SpeedupPointEntry{}.JournalKind())
	if len(pts) == 0 || pts[len(pts)-1].Point.Error != "" {
		return results.SpeedupPoint{}, false
	}
	return pts[len(pts)-1].Point, true
}

// reopen replaces the run's session after a fault, with the settings that
// stay the same for the whole run fixed again.
func (r *speedupRun) reopen(ctx context.Context) error {
	if err := r.o.reopen(ctx); err != nil {
		return err
	}
	r.e = r.o.e
	_, err := fixSettings(ctx, r.e)
	return err
}
