package experiment

import (
	"encoding/json"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/timing"
)

// A qac run's unit is a Q@C: all its query executions at one cardinality.
// A Q@C interrupted anywhere is done again from its first execution when
// the run is resumed (its executions so far stay in the journal, as
// interrupted ones do); a completed one is taken back from the journal.
// The variable tables are built again except those of completed Q@Cs,
// and the query constants are drawn in the same order from the run's
// seed, so the resumed Q@Cs run the very queries an uninterrupted run
// would.

// qacUnit names the Q@C at cardinality c in the journal.
func qacUnit(c int64) string { return fmt.Sprintf("cardinality %d", c) }

// doneQaC is a completed Q@C taken back from the journal.
type doneQaC struct {
	res results.QaCResult
	qac timing.QaC
}

// doneQaCs are the Q@Cs a stopped run completed, by cardinality; nil for
// a new run. A Q@C's executions are the last qes "qe" entries of its
// cardinality before its "qac" entry: earlier ones belong to attempts
// restarted for a plan change or cut short by a fault.
func doneQaCs(p *results.Progress, query string, qes int) map[int64]doneQaC {
	if p == nil {
		return nil
	}
	seen := map[int64][]timing.QE{}
	out := map[int64]doneQaC{}
	for _, e := range p.Entries {
		switch e.Type {
		case results.QACExecution{}.JournalKind():
			var x results.QACExecution
			if decodeRaw(e, &x) {
				seen[x.Cardinality] = append(seen[x.Cardinality], x.QE)
			}
		case results.QaCResult{}.JournalKind():
			var q results.QaCResult
			if !decodeRaw(e, &q) || !p.Done[qacUnit(q.Cardinality)] || len(seen[q.Cardinality]) < qes {
				continue
			}
			all := seen[q.Cardinality]
			out[q.Cardinality] = doneQaC{res: q, qac: timing.QaC{Query: query, Cardinality: q.Cardinality,
				QEs: append([]timing.QE(nil), all[len(all)-qes:]...), Restarts: q.PlanRestarts}}
		}
	}
	return out
}

// decodeRaw decodes a journal entry's payload into v; false when it does
// not decode.
func decodeRaw(e results.RawEntry, v any) bool { return json.Unmarshal(e.Data, v) == nil }
