package report

import (
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// EngineTimeTable puts the engine's own time of each query result beside
// the client's: the medians of the client's time, the engine's (planning
// included), its planning part, and the difference, the time outside the
// engine, with its share of the client's. Nil when the run recorded
// nothing about engine time; a note only when the engine reported none.
func EngineTimeTable(r *results.WisconsinResults) *Table {
	et := r.EngineTime
	if et == nil {
		return nil
	}
	t := &Table{Title: []string{fmt.Sprintf("Where the time goes: the client's time and %s's own (%s %s), median ms", r.Engine, r.Engine, r.EngineVersion)}}
	if et.None != "" {
		t.Notes = []string{"engine time: none: " + et.None}
		return t
	}
	t.Rows = append(t.Rows, []string{"size", "query", "class", "organization", "destination", "client_ms", "engine_ms", "planning_ms", "outside_ms", "outside_share"})
	for _, q := range r.Queries {
		e := q.Engine
		if e == nil {
			if q.EngineNone != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("N=%d Q%d %s %s: no engine time: %s", q.Size, q.Query, q.Organization, q.Destination, q.EngineNone))
			}
			continue
		}
		plan := "-"
		if e.PlanMS != nil {
			plan = ms(e.PlanMS.Median)
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(q.Size, 10), strconv.Itoa(q.Query), q.Class, q.Organization, q.Destination,
			ms(q.ElapsedMS.Median), ms(e.TotalMS.Median), plan, ms(e.OutsideMS.Median), strconv.FormatFloat(100*e.OutsideShare, 'f', 1, 64) + "%"})
	}
	t.Notes = append(t.Notes, engineTimeNote(et))
	return t
}

// engineTimeNote says whose times the table holds.
func engineTimeNote(et *results.EngineTiming) string {
	n := "engine time from " + et.Source + ": the engine's time of each repetition, planning included"
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
