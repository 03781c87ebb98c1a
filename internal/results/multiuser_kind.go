package results

import (
	"fmt"
	"math"
	"strconv"
)

// The multi-user thruput as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "multiuser",
		Title:    "multi-user thruput",
		New:      func() Results { return &MultiuserResults{} },
		Headline: func(r Results) Headline { return multiuserHeadline(r.(*MultiuserResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchMultiuser(w, r.(*MultiuserResults)) },
		Units:    "step",
	})
}

func multiuserHeadline(r *MultiuserResults) Headline {
	var best *MultiuserPoint
	for i, p := range r.Points {
		if p.Thruput != nil && !math.IsNaN(*p.Thruput) && (best == nil || *p.Thruput > *best.Thruput) {
			best = &r.Points[i]
		}
	}
	if best == nil {
		return Headline{Label: "peak thruput", Text: "not measured"}
	}
	return number(fmt.Sprintf("peak thruput (%d users)", best.Users), *best.Thruput, "%.2f")
}

// Multiuser: every repetition's wall time at every user count (0 users is
// the harness alone), as measured, before any overhead is subtracted.
func benchMultiuser(w *BenchWriter, r *MultiuserResults) {
	if w.procs == 0 {
		w.procs = r.CPUs
	}
	for _, run := range r.Runs {
		w.Line([]string{"Multiuser", "users=" + strconv.Itoa(run.Users)}, 1, NS(run.WallMS, "ns/op"))
	}
}
