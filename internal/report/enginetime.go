package report

import "github.com/dbgauge/dbgauge/internal/results"

// engineTimingLine says where a run's engine times come from, or why
// there are none.
func engineTimingLine(et *results.EngineTiming) string {
	if et.None != "" {
		return "no engine time: " + et.None
	}
	s := "engine time from " + et.Source
	if et.Separate {
		s += " (a second execution)"
	}
	return s
}
