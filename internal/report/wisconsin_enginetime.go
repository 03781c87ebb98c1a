package report

import (
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// EngineTimeTable puts the engine's own time of each query result beside
// the client's: the medians of the client's time, the engine's (planning
// included), its planning part, and the difference, the time outside the
// engine, with its share of the client's; and seed 004's effective
// transaction rate of each, queries per second from the client's time
// and from the engine's (its "rate = 60 / set 5 ticks"). Nil when the run
// recorded nothing about engine time (a run of an earlier version).
func EngineTimeTable(r *results.WisconsinResults) *Table {
	et := r.EngineTime
	if et == nil {
		return nil
	}
	t := &Table{Title: []string{fmt.Sprintf("Where the time goes: the client's time and %s's own (%s %s), median ms, and the effective rate in queries/s", r.Engine, r.Engine, r.EngineVersion)}}
	t.Rows = append(t.Rows, []string{"size", "query", "class", "organization", "destination", "client_ms", "engine_ms", "planning_ms", "outside_ms", "outside_share", "rate_client_qps", "rate_engine_qps"})
	overlap := 0.0 // the largest excess of the engine's median over the client's
	for _, q := range r.Queries {
		if q.Status != results.StatusOK || q.Reps == 0 {
			continue
		}
		row := []string{strconv.FormatInt(q.Size, 10), strconv.Itoa(q.Query), q.Class, q.Organization, q.Destination, ms(q.ElapsedMS.Median)}
		e := q.Engine
		if e == nil {
			if q.EngineNone != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("N=%d Q%d %s %s: no engine time: %s", q.Size, q.Query, q.Organization, q.Destination, q.EngineNone))
			}
			t.Rows = append(t.Rows, append(row, "-", "-", "-", "-", effectiveRate(q.ElapsedMS.Median), "-"))
			continue
		}
		plan := "-"
		if e.PlanMS != nil {
			plan = ms(e.PlanMS.Median)
		}
		outside, share := ms(e.OutsideMS.Median), strconv.FormatFloat(100*e.OutsideShare, 'f', 1, 64)+"%"
		if e.OutsideMS.Median < 0 {
			outside, share = overlapCell, overlapCell+"%"
			overlap = max(overlap, -e.OutsideMS.Median)
		}
		t.Rows = append(t.Rows, append(row, ms(e.TotalMS.Median), plan, outside, share,
			effectiveRate(q.ElapsedMS.Median), effectiveRate(e.TotalMS.Median)))
	}
	if overlap > 0 {
		t.Notes = append(t.Notes, overlapNote(overlap))
	}
	t.Notes = append(t.Notes, engineTimeNote(et))
	t.Notes = append(t.Notes, "effective rate (seed 004): 1000 / median ms, the queries per second one session would run back to back")
	return t
}

// overlapCell stands for a time outside the engine that came out below
// zero: the engine's median exceeded the client's. That is no measured
// negative time but the two clocks' overlap (docs/wisconsin.md §8: an
// engine may time its statement until its reply is sent, after the client
// has it), so the table shows no figure there; results.json keeps the
// difference.
const overlapCell = "~0"

// overlapNote says what overlapCell means, with the largest overlap seen.
func overlapNote(ms float64) string {
	return fmt.Sprintf("%s: the engine's own time ended after the client's (by up to %s ms): the two clocks overlap, so no time outside the engine can be told apart there (the difference is in results.json)",
		overlapCell, sigDigits(ms, 2))
}

// effectiveRate is seed 004's effective transaction rate of a query whose
// median time is ms: queries per second.
func effectiveRate(ms float64) string {
	if ms <= 0 {
		return "-"
	}
	return sigDigits(1000/ms, 4)
}

// engineTimeNote says whose times the table holds.
func engineTimeNote(et *results.EngineTiming) string {
	if et.None != "" {
		return engineTimingLine(et)
	}
	n := engineTimingLine(et) + ": the engine's time of each repetition, planning included"
	if !et.Planning {
		n += " (no planning time reported apart)"
	}
	if et.Separate {
		n += "; taken from a second execution of each retrieval's query without its destination (the extension that times the execution itself is not loaded), so the destination's storing or transfer counts as outside"
	}
	if et.Note != "" {
		n += "; " + et.Note
	}
	return n + "; outside = client - engine, per repetition: network, driver, the transfer of the result to the client"
}
