package experiment

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// A sweep's unit is a scale: its population, its cycles and their checks.
// A scale interrupted anywhere (its population included) is measured
// again from its population when the run is resumed; a completed one is
// taken back from the journal.

// scaleUnit names scale x's unit in the journal.
func scaleUnit(x int64) string { return fmt.Sprintf("scale %d", x) }

// scaleSeed is the seed of scale x's transaction inputs: derived from the
// run's seed and the scale itself, never from the order the scales ran
// in, so that a resumed sweep draws what an uninterrupted one would.
func scaleSeed(seed uint64, x int64) uint64 { return seed ^ uint64(x)<<20 }

// doneScales are the scales a stopped sweep journalled, by scale: the
// last entry of each (a scale tried again after a fault is journalled
// once per try; the last is the one that completed). Nil for a new run.
func doneScales(p *results.Progress) map[int64]results.ScaleResult {
	if p == nil {
		return nil
	}
	out := map[int64]results.ScaleResult{}
	results.Decode(p, results.ScaleResult{}.JournalKind(), func(_ int, sr results.ScaleResult) {
		out[sr.Scale] = sr
	})
	return out
}
