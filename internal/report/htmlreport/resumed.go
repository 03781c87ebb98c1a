package htmlreport

import (
	"fmt"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// resumeNotes are what every run's page says about a run that was
// resumed (`dbgauge resume`) or paused (--pause-on-error), from the
// common header of its results: the units measured on either side of a
// resumption or a pause were measured in different sessions, perhaps
// with the machine or the server changed in between.
func resumeNotes(h results.Header) (rows [][2]string, warnings []string) {
	if len(h.Resumed) > 0 {
		times := make([]string, len(h.Resumed))
		for i, t := range h.Resumed {
			times[i] = t.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		rows = append(rows, [2]string{"resumed", strings.Join(times, ", ")})
		warnings = append(warnings, fmt.Sprintf("the run stopped and was resumed (dbgauge resume) at %s: the units completed before were kept and the others measured then", strings.Join(times, ", ")))
	}
	for _, p := range h.Pauses {
		warnings = append(warnings, fmt.Sprintf("paused at %s from %s for %s after %d failed %s (%s): %s",
			p.Unit, p.Start.UTC().Format("2006-01-02 15:04:05 UTC"), p.End.Sub(p.Start).Round(time.Second), p.Attempts,
			plural(p.Attempts, "attempt", "attempts"), p.Fault, p.Outcome))
	}
	return rows, warnings
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
