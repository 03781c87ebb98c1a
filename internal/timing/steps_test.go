package timing

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// qeWith is a clean QE whose query process spent u user ticks (plus 3
// system and 2 block-I/O ticks, with 2 IOWait ticks) in mtMS milliseconds:
// its computed time is (u+3+2-1) x 10 = (u+4) x 10 ms. It passes every
// check while u+7 <= mtMS/10.
func qeWith(index int, u uint64, mtMS int) QE {
	qe := cleanQE(index)
	qe.Measured = time.Duration(mtMS) * time.Millisecond
	qe.Overall.User = u + 2
	setClass(&qe, Query, func(q *Usage) { q.UserTicks = u })
	return qe
}

func qacWith(card int64, mtMS int, us ...uint64) QaC {
	q := QaC{Query: "q1", Cardinality: card}
	for i, u := range us {
		q.QEs = append(q.QEs, qeWith(i+1, u, mtMS))
	}
	return q
}

func cleanSweep() *Experiment {
	return &Experiment{QaCs: []QaC{
		qacWith(1000, 200, 12, 13, 12, 11, 12, 12, 13, 12, 12, 11),
		qacWith(2000, 400, 25, 26, 25, 24, 25, 25, 26, 25, 25, 24),
		qacWith(4000, 800, 50, 51, 50, 49, 50, 50, 51, 50, 50, 49),
	}, Env: Environment{QEsPerQaC: 10}}
}

func TestAnalyzeCleanSweep(t *testing.T) {
	a := Analyze(cleanSweep())
	if a.Dirty || len(a.QEViolations)+len(a.QaCViolations) != 0 {
		t.Fatalf("clean sweep: dirty %v, violations %+v %+v", a.Dirty, a.QEViolations, a.QaCViolations)
	}
	if a.TotalQEs != 30 || a.DroppedQEs != 0 || a.TotalQaCs != 3 || a.DroppedQaCs != 0 || a.QEsDroppedPct != 0 {
		t.Errorf("counts %+v", a)
	}
	// Computed (u+4) x 10: medians of u are 12, 25, 50.
	for i, want := range []float64{160, 290, 540} {
		r := a.QaCs[i]
		if !r.Retained || r.Kept != 10 || r.Computed.Median != want || r.Time(MeasureTick) != want {
			t.Errorf("Q@C %d: retained %v kept %d computed %+v, want median %v", r.Cardinality, r.Retained, r.Kept, r.Computed, want)
		}
		for _, e := range []Estimate{r.Measured, r.Computed} {
			if e.N != 10 || !(e.Low <= e.Median && e.Median <= e.High) {
				t.Errorf("Q@C %d: estimate %+v does not hold its median", r.Cardinality, e)
			}
		}
		if r.Computed.RSD <= 0 || r.Measured.RSD != 0 {
			t.Errorf("Q@C %d: rsd computed %v measured %v", r.Cardinality, r.Computed.RSD, r.Measured.RSD)
		}
		if r.Fine.N != 0 {
			t.Errorf("fine estimate without fine measures: %+v", r.Fine)
		}
	}
	if a.Pairs != 3 || a.Post.Pairs != 3 || len(a.Post.Strict)+len(a.Post.Relaxed)+len(a.Post.ExcessiveVariation) != 0 {
		t.Errorf("post checks %+v", a.Post)
	}
	// |200-160|/200, |400-290|/400, |800-540|/800: mean of 20, 27.5, 32.5 %.
	if d := a.Post.RelDiffRetainedPct - (20+27.5+32.5)/3; d > 1e-9 || d < -1e-9 || a.Post.RelDiffRetainedN != 3 || a.Post.RelDiffDroppedN != 0 {
		t.Errorf("relative difference %v (n %d)", a.Post.RelDiffRetainedPct, a.Post.RelDiffRetainedN)
	}
	// Blkio, IOWait and the other classes never vary here; user ticks do.
	if !slices.Contains(a.Post.NonVarying, "query process block-I/O delay ticks") ||
		slices.Contains(a.Post.NonVarying, "query process user ticks") || slices.Contains(a.Post.NonVarying, "measured time") {
		t.Errorf("non-varying %v", a.Post.NonVarying)
	}
	// The bootstrap is seeded: the same run gives the same analysis.
	if b := Analyze(cleanSweep()); !reflect.DeepEqual(a, b) {
		t.Error("two analyses of the same run differ")
	}
}

func TestStep3(t *testing.T) {
	timedOut := func(q QaC, n int) QaC {
		for i := range n {
			q.QEs[i].TimedOut = true
		}
		return q
	}
	ten := func(card int64) QaC { return qacWith(card, 200, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12) }
	short := func(card int64, ms int) QaC {
		q := QaC{Query: "q2", Cardinality: card}
		for i := 1; i <= 10; i++ {
			// 1 tick of user time in 2 (or 3) ticks: every check passes.
			q.QEs = append(q.QEs, withProcesses(QE{
				Index: i, Measured: time.Duration(ms) * time.Millisecond, QueryProcessSeen: true,
				Classes: map[Class]Usage{Query: {UserTicks: 1}, Utility: {}, Daemon: {}},
				Overall: Overall{User: 1, Idle: 3},
			}))
		}
		return q
	}
	noQP := ten(5000)
	for i := range noQP.QEs {
		noQP.QEs[i].QueryProcessSeen = false
	}
	e := &Experiment{QaCs: []QaC{
		timedOut(ten(1000), 5), // 5 QEs left: dropped
		timedOut(ten(2000), 4), // 6 left: kept
		short(1000, 20),        // mean mt 20 ms = 2 ticks: dropped
		short(2000, 21),        // 21 ms: kept
		qacWith(3000, 200, 5, 5, 5, 13, 13, 13, 5, 5, 13, 13), // u+s 8 or 16: sd 4.2 > 0.2 x 12
		noQP,
	}}
	a := Analyze(e)
	want := []struct {
		retained bool
		kept     int
		reasons  []string
	}{
		{false, 5, []string{DropTooFewQEs}},
		{true, 6, nil},
		{false, 10, []string{DropTooShort}},
		{true, 10, nil},
		{false, 10, []string{DropExcessive}},
		{false, 0, []string{DropNoQEsLeft, DropTooFewQEs}},
	}
	for i, w := range want {
		r := a.QaCs[i]
		if r.Retained != w.retained || r.Kept != w.kept || !slices.Equal(r.DropReasons, w.reasons) {
			t.Errorf("Q@C %d (%s@%d): retained %v kept %d reasons %v, want %v %d %v",
				i, r.Query, r.Cardinality, r.Retained, r.Kept, r.DropReasons, w.retained, w.kept, w.reasons)
		}
	}
	if s := a.Step3; s != (Step3Counts{NoQEsLeft: 1, VariationOrCache: 1, TooShort: 1, TooFewQEs: 1}) {
		t.Errorf("step 3 counts %+v", s)
	}
	// 5 + 4 + 10 QEs dropped of 60; 4 Q@Cs of 6.
	if a.DroppedQEs != 19 || a.TotalQEs != 60 || a.DroppedQaCs != 4 || a.TotalQaCs != 6 {
		t.Errorf("drops %d/%d QEs, %d/%d Q@Cs", a.DroppedQEs, a.TotalQEs, a.DroppedQaCs, a.TotalQaCs)
	}
	if a.QaCsDroppedPct != 100*4.0/6 || a.QEsDroppedPct != 100*19.0/60 {
		t.Errorf("percentages %v %v", a.QEsDroppedPct, a.QaCsDroppedPct)
	}
	if a.QECheckCounts[CheckTimedOut] != 9 || a.QECheckCounts[CheckNoQueryProcess] != 10 {
		t.Errorf("check counts %v", a.QECheckCounts)
	}
	// Dropped QEs are marked, and the estimates leave them out.
	if r := a.QaCs[1]; !r.QEs[0].Dropped || !slices.Equal(r.QEs[0].Checks, []string{CheckTimedOut}) || r.Computed.N != 6 {
		t.Errorf("dropped QE %+v, estimate %+v", r.QEs[0], r.Computed)
	}
	// The dropped Q@Cs are compared with their measured time too: those
	// with a query process (all but the last).
	if a.Post.RelDiffDroppedN != 3 {
		t.Errorf("dropped Q@Cs compared: %d", a.Post.RelDiffDroppedN)
	}
}

func TestPostChecks(t *testing.T) {
	// Computed time falls from 1000 to 2000 rows: strict and relaxed.
	e := &Experiment{QaCs: []QaC{
		qacWith(1000, 400, 20, 20, 20, 20, 20, 20, 20, 20, 20, 21),
		qacWith(2000, 400, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11),
	}}
	a := Analyze(e)
	if len(a.Post.Strict) != 1 || len(a.Post.Relaxed) != 1 || a.Post.StrictPct != 100 || a.Post.Pairs != 1 {
		t.Errorf("post monotonicity %+v", a.Post)
	}
	if v := a.Post.Strict[0]; v.Scope != ScopePost || v.Cardinality != 1000 || v.Other != 2000 {
		t.Errorf("violation %+v", v)
	}
	// Measured time grew (400 both): the step-1 checks on it stay quiet.
	if len(a.QaCViolations) != 0 {
		t.Errorf("step 1 fired %v", checkIDs(a.QaCViolations))
	}

	// Steady CPU, block-I/O delay of 0 or 12 ticks: computed 150 or 270 ms
	// (mean 210, sd 63 > 42), which step 1's u+s does not see.
	q := QaC{Query: "q3", Cardinality: 1000}
	for i := 1; i <= 10; i++ {
		qe := cleanQE(i)
		qe.Measured = 300 * time.Millisecond
		qe.Overall.IOWait = 0
		setClass(&qe, Query, func(u *Usage) { u.BlkioTicks = uint64(12 * (i % 2)) })
		q.QEs = append(q.QEs, qe)
	}
	a = Analyze(&Experiment{QaCs: []QaC{q}})
	if !a.QaCs[0].Retained || len(a.Post.ExcessiveVariation) != 1 || a.Post.ExcessiveVariationPct != 100 {
		t.Errorf("post variation: retained %v, %+v", a.QaCs[0].Retained, a.Post.ExcessiveVariation)
	}
}

func TestFineEstimate(t *testing.T) {
	q := qacWith(1000, 200, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12)
	for i := range q.QEs {
		// 150 ms of CPU, 0.5 ms of block-I/O delay, less 10 ms of IOWait.
		setClass(&q.QEs[i], Query, func(u *Usage) { u.Fine, u.CPUUS, u.BlkioNS = true, 150000+uint64(i), 500_000 })
	}
	a := Analyze(&Experiment{QaCs: []QaC{q}, Env: Environment{ComputedMeasure: MeasureFine}})
	r := a.QaCs[0]
	// CPU 150.000..150.009 ms: median 150.0045 + 0.5 - 10.
	if r.Fine.N != 10 || r.Fine.Median-140.5045 > 1e-9 || 140.5045-r.Fine.Median > 1e-9 || r.Time(MeasureFine) != r.Fine.Median {
		t.Errorf("fine estimate %+v", r.Fine)
	}
	if r.Computed.Median != 160 {
		t.Errorf("tick estimate kept beside it: %+v", r.Computed)
	}
}
