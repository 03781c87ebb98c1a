package results

import (
	"fmt"
	"strings"
)

// The query at cardinality as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "qac",
		Title:    "query at cardinality",
		New:      func() Results { return &QACResults{} },
		Headline: func(r Results) Headline { return qacHeadline(r.(*QACResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchQAC(w, r.(*QACResults)) },
		Units:    "Q@C",
	})
}

// qacHeadline quotes the computed time of the largest cardinality the
// protocol kept: a Q@C it dropped failed its sanity checks, so its times
// are not the protocol's result and must not stand as the run's figure.
// With none kept the headline says so, without a number.
func qacHeadline(r *QACResults) Headline {
	var last *QaCResult
	for i, q := range r.QaCs {
		if q.Retained && (last == nil || q.Cardinality > last.Cardinality) {
			last = &r.QaCs[i]
		}
	}
	if last == nil {
		if len(r.QaCs) == 0 {
			return Headline{Label: "computed time", Text: "not measured"}
		}
		return Headline{Label: "computed time", Text: fmt.Sprintf("no Q@C kept by the protocol (%d dropped)", len(r.QaCs))}
	}
	est := last.Computed
	if r.Measure == "fine" {
		est = last.Fine
	}
	return number(fmt.Sprintf("median computed time at %d rows", last.Cardinality), est.MedianMS, "%.4g ms")
}

// QAC: every QE the protocol kept at every cardinality: measured (wall
// clock) time as ns/op, and the computed times the protocol derives
// (computed-ns/op from ticks, fine-ns/op from taskstats/schedstat where
// the run had them).
func benchQAC(w *BenchWriter, r *QACResults) {
	query := "sql"
	if n, ok := strings.CutPrefix(r.Query, "wisconsin "); ok {
		query = "Q" + n
	}
	for _, q := range r.QaCs {
		name := []string{"QAC", query, "card=" + itoa(q.Cardinality)}
		if !q.Retained {
			continue // the protocol dropped this Q@C: its times are not to be trusted
		}
		for _, qe := range q.QEs {
			if qe.Dropped || qe.Error != "" {
				continue
			}
			vals := []BenchValue{NS(qe.MeasuredMS, "ns/op"), NS(qe.ComputedMS, "computed-ns/op")}
			if q.Fine.N > 0 {
				vals = append(vals, NS(qe.FineMS, "fine-ns/op"))
			}
			w.Line(name, 1, vals...)
		}
	}
}
