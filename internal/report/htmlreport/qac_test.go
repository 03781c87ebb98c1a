package htmlreport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// A Q@C run on SQLite at two cardinalities: the summary says what
// results.json holds, the diagram has data, and dropped Q@Cs, deviations
// and experiment-wide violations are warned about exactly when the
// protocol found them.
func TestQACPage(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the timing protocol reads /proc and taskstats as root")
	}
	dir := filepath.Join(t.TempDir(), "run")
	plan := experiment.QACPlan{Wisconsin: 1, Cardinalities: []int64{10000, 20000}, QEs: 6, MaxRestarts: 1, Seed: 1}
	if _, err := experiment.RunQAC(context.Background(), experiment.Setup{Dir: dir, Version: "test"}, plan, progress.New(nil)); err != nil {
		t.Fatal(err)
	}
	var res results.QACResults
	readResults(t, dir, &res)
	if res.Protocol == nil || len(res.QaCs) != 2 || res.Measure != "tick" {
		t.Fatalf("protocol %v, %d Q@Cs, measure %q", res.Protocol, len(res.QaCs), res.Measure)
	}
	d := docOf(t, dir)
	checkPage(t, d)
	if d.Protocol == "" {
		t.Error("the protocol paragraph is missing")
	}
	retained := 0
	for _, q := range res.QaCs {
		// a dropped Q@C's time is never a headline value
		want := "-"
		switch {
		case !q.Retained:
			want = "dropped"
		case q.Computed.N > 0:
			want = num(q.Computed.MedianMS) + " ms"
		}
		if got := headline(t, d, fmt.Sprintf("C = %d: computed (ticks)", q.Cardinality)).Value; got != want {
			t.Errorf("cardinality %d: headline %q, want %q", q.Cardinality, got, want)
		}
		dropped := fmt.Sprintf("cardinality %d: Q@C dropped", q.Cardinality)
		if n := warned(d, dropped); (n == 1) == q.Retained || n > 1 {
			t.Errorf("retained %v and %d warnings %q", q.Retained, n, dropped)
		}
		if q.Retained {
			retained++
		}
	}
	if got, want := headline(t, d, "QEs dropped").Value, pct(res.Protocol.QEsDroppedPct)+"%"; got != want {
		t.Errorf("QEs dropped %q, want %q", got, want)
	}
	if got, want := headline(t, d, "Q@Cs dropped").Value, pct(res.Protocol.QaCsDroppedPct)+"%"; got != want {
		t.Errorf("Q@Cs dropped %q, want %q", got, want)
	}
	if got := headline(t, d, "protocol retained").Value; (got == "nothing") != (retained == 0) {
		t.Errorf("protocol retained %q with %d Q@Cs retained", got, retained)
	}
	if n := warned(d, "protocol deviation: "); n != len(res.Protocol.Deviations) {
		t.Errorf("%d deviation warnings, %d deviations", n, len(res.Protocol.Deviations))
	}

	// a clean run that kept everything: none of these warnings
	clean := res
	p := *res.Protocol
	p.Dirty, p.Violations, p.Deviations, p.PostChecks, p.QEsDroppedPct, p.QaCsDroppedPct = false, nil, nil, nil, 0, 0
	clean.Protocol = &p
	clean.QaCs = slices.Clone(res.QaCs)
	for i := range clean.QaCs {
		q := &clean.QaCs[i]
		q.Retained, q.DropReasons, q.Kept = true, nil, len(q.QEs)
		q.QEs = slices.Clone(q.QEs)
		for j := range q.QEs {
			q.QEs[j].Dropped, q.QEs[j].Checks = false, nil
		}
	}
	d = docOf(t, withResults(t, dir, clean))
	for _, s := range []string{"dropped", "deviation", "experiment-wide"} {
		if n := warned(d, s); n != 0 {
			t.Errorf("%d warnings about %q in a clean run: %q", n, s, d.Warnings)
		}
	}
	if got, want := headline(t, d, "protocol retained").Value, "2 of 2 Q@Cs"; got != want {
		t.Errorf("protocol retained %q, want %q", got, want)
	}

	// the same run dirty, deviating and dropping the first Q@C
	dirty := clean
	p2 := p
	p2.Dirty = true
	p2.Violations = []results.Violation{{Check: "other_query_process", Scope: "experiment", Detail: "postgres, pid 1"}}
	p2.Deviations = []string{"it ran in a virtual machine"}
	dirty.Protocol = &p2
	dirty.QaCs = slices.Clone(clean.QaCs)
	dirty.QaCs[0].Retained, dirty.QaCs[0].DropReasons = false, []string{"too_short"}
	dirty.QaCs[0].Computed = results.Estimate{MedianMS: 12.5, N: 6}
	d = docOf(t, withResults(t, dir, dirty))
	checkPage(t, d)
	// the dropped Q@C's 12.5 ms is in the note, never the value
	if h := headline(t, d, fmt.Sprintf("C = %d: computed (ticks)", dirty.QaCs[0].Cardinality)); h.Value != "dropped" || !strings.Contains(h.Note, "12.5 ms") || !strings.Contains(h.Note, "not the protocol's result") {
		t.Errorf("dropped Q@C's headline %q (%s), want dropped with its time in the note", h.Value, h.Note)
	}
	checkWarnedOnce(t, d, "experiment-wide check other_query_process failed", "protocol deviation: it ran in a virtual machine",
		fmt.Sprintf("cardinality %d: Q@C dropped (too_short)", dirty.QaCs[0].Cardinality))

	// every QE dropped, as on a busy machine: the diagram stays, of every
	// QE that ran, and its reading says that is not the protocol's result
	none := dirty
	none.QaCs = slices.Clone(clean.QaCs)
	for i := range none.QaCs {
		q := &none.QaCs[i]
		q.Retained, q.Kept, q.Measured, q.Computed, q.Fine = false, 0, results.Estimate{}, results.Estimate{}, results.Estimate{}
	}
	d = docOf(t, withResults(t, dir, none))
	checkPage(t, d)
	if s := cmpSection(t, d, "qac"); s.SVG == "" || !strings.Contains(s.Reading, "not the protocol's result") {
		t.Errorf("no execution kept: diagram of %d bytes, reading %q", len(s.SVG), s.Reading)
	}
}
