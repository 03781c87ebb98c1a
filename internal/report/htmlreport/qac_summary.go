package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
)

// qacComputed is the computed time the protocol used (seed 002's tick
// based one, or the fine one from taskstats/schedstat), with its name.
func qacComputed(r *results.QACResults, q results.QaCResult) (results.Estimate, string) {
	if r.Measure == "fine" {
		return q.Fine, "computed (fine)"
	}
	return q.Computed, "computed (ticks)"
}

// qacHeadlines are the summary of a Q@C run: the computed time's median
// at every cardinality the protocol kept, the share of QEs and Q@Cs it
// dropped, and whether it retained anything. A dropped Q@C's figure is
// never a headline value: it failed the sanity checks, so its times stand
// only in the note, said to be not the protocol's result.
func qacHeadlines(r *results.QACResults) []Headline {
	var out []Headline
	retained := 0
	for _, q := range r.QaCs {
		e, name := qacComputed(r, q)
		h := Headline{Label: fmt.Sprintf("C = %d: %s", q.Cardinality, name), Value: "-"}
		figures := ""
		if e.N > 0 {
			figures = fmt.Sprintf("%s ms, measured %s ms", num(e.MedianMS), num(q.Measured.MedianMS))
		}
		kept := fmt.Sprintf("%d/%d QEs kept", q.Kept, len(q.QEs))
		switch {
		case !q.Retained:
			h.Value, h.Note = "dropped", kept
			if figures != "" {
				h.Note = kept + " · " + figures + ": not the protocol's result"
			}
		case e.N > 0:
			h.Value = num(e.MedianMS) + " ms"
			h.Note = fmt.Sprintf("measured %s ms · %s", num(q.Measured.MedianMS), kept)
		default:
			h.Note = kept
		}
		if q.Retained {
			retained++
		}
		out = append(out, h)
	}
	if p := r.Protocol; p != nil {
		qes, dropped := qacDroppedQEs(r)
		out = append(out,
			Headline{Label: "QEs dropped", Value: pct(p.QEsDroppedPct) + "%", Note: fmt.Sprintf("%d of %d query executions", dropped, qes)},
			Headline{Label: "Q@Cs dropped", Value: pct(p.QaCsDroppedPct) + "%", Note: fmt.Sprintf("%d of %d cardinalities", len(r.QaCs)-retained, len(r.QaCs))})
	}
	ret := Headline{Label: "protocol retained", Value: fmt.Sprintf("%d of %d Q@Cs", retained, len(r.QaCs))}
	switch {
	case len(r.QaCs) > 0 && retained == 0:
		ret.Value, ret.Note = "nothing", "no Q@C passed the sanity checks: the run has no computed time to quote"
	case r.Protocol != nil && r.Protocol.Dirty:
		ret.Note = "but the run is dirty: an experiment-wide check failed"
	}
	return append(out, ret)
}

// qacDroppedQEs counts the QEs that ran and those the protocol dropped.
func qacDroppedQEs(r *results.QACResults) (qes, dropped int) {
	for _, q := range r.QaCs {
		for _, qe := range q.QEs {
			qes++
			if qe.Dropped {
				dropped++
			}
		}
	}
	return qes, dropped
}
