package experiment

import (
	"fmt"
	"math/rand/v2"

	"github.com/dbgauge/dbgauge/internal/results"
)

// A size sweep's unit is a size: its tables cut and organised, its
// warm-up and its timed retrieves under every method. When a run is
// resumed, a completed size is taken back from the journal (its points,
// whole, and the load of its base relation); the others are built and
// timed again from the start. The retrieves' keys of a size come from the
// run's seed and the size, not from the sizes timed before it.

// sizeUnit names size n's unit in the journal.
func sizeUnit(n int64) string { return fmt.Sprintf("size %d", n) }

// sizeRand is the generator of size n's keys.
func sizeRand(seed uint64, n int64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed^uint64(n)<<16))
}

// restoreSize takes size n back from a resumed run's journal; false when
// the run is new or the size did not complete.
func (r *sizeSweepRun) restoreSize(n int64) bool {
	if r.done == nil || !r.units.completed(sizeUnit(n)) {
		return false
	}
	var pts []results.SizeSweepPoint
	results.Decode(r.done, results.SizeSweepPoint{}.JournalKind(), func(_ int, p results.SizeSweepPoint) {
		if p.Size != n {
			return
		}
		for i := range pts {
			if pts[i].Access == p.Access {
				pts = pts[:i] // an earlier try of the size: the later replaces it
				break
			}
		}
		pts = append(pts, p)
	})
	if len(pts) != len(r.plan.Access) {
		return false
	}
	m := (n + 99) / 100 * 100
	var load *results.LoadResult
	results.Decode(r.done, results.LoadResult{}.JournalKind(), func(_ int, lr results.LoadResult) {
		if lr.Size == m {
			load = &lr
		}
	})
	if load != nil && (len(r.res.Loads) == 0 || r.res.Loads[len(r.res.Loads)-1].Size != m) {
		r.res.Loads = append(r.res.Loads, *load)
	}
	r.res.Points = append(r.res.Points, pts...)
	r.pr.Line("N=%-9d complete before the run was resumed: kept", n)
	return true
}
