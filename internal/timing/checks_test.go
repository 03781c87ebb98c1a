package timing

import (
	"slices"
	"sort"
	"testing"
	"time"
)

// cleanQE passes every per-QE check. Worked out by hand, with mt = 200 ms,
// so ceil(mt/10) = 20 ticks:
//
//	qp u+s+blkio = 12+3+2 = 17 <= 21           (query time, zero query time)
//	(qp+up)(u+s+blkio) = 17+1 = 18 >= dp 1+1 = 2 (DBMS time)
//	overall user+nice+1 = 15 >= qp u = 12      (query user ticks)
//	overall user+nice+system = 14+5 = 19 <= 20 (overall computation)
//	(qp+up+dp)(u+s) = 15+1+2 = 18 <= 30        (computation)
//	every blkio <= 20; overall iowait 2 <= qp blkio 2; qp u+s 15 >= up 1
func cleanQE(index int) QE {
	qe := QE{
		Index:    index,
		Measured: 200 * time.Millisecond,
		Plan:     "Seq Scan on t",
		Classes: map[Class]Usage{
			Query:   {UserTicks: 12, SysTicks: 3, BlkioTicks: 2, VolCtx: 10, NonvolCtx: 2},
			Utility: {UserTicks: 1},
			Daemon:  {UserTicks: 1, SysTicks: 1},
		},
		Overall:          Overall{User: 14, System: 5, Idle: 20, IOWait: 2},
		QueryProcessSeen: true,
	}
	return withProcesses(qe)
}

// withProcesses lists one process per class with the class's usage, as
// the snapshot code would for a server with one utility process.
func withProcesses(qe QE) QE {
	qe.Processes = nil
	for _, c := range []Class{Query, Utility, Daemon} {
		qe.Processes = append(qe.Processes, ProcessUsage{PID: 100 + int(c), Comm: c.String(), Class: c, Usage: qe.Classes[c]})
	}
	return qe
}

func setClass(qe *QE, c Class, f func(*Usage)) {
	u := qe.Classes[c]
	f(&u)
	qe.Classes[c] = u
	*qe = withProcesses(*qe)
}

func checkIDs(vs []Violation) []string {
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.Check)
	}
	sort.Strings(ids)
	return ids
}

func alone(qe QE) []Violation { return CheckQE(qe, SwitchStatsOf([]QE{qe})) }

func TestCleanQEPassesEveryCheck(t *testing.T) {
	if vs := alone(cleanQE(1)); len(vs) != 0 {
		t.Fatalf("clean QE violates %v: %+v", checkIDs(vs), vs)
	}
}

// Each per-QE check fires alone on a QE changed just enough to violate it.
func TestPerQEChecks(t *testing.T) {
	cases := []struct {
		id     string
		mutate func(*QE)
	}{
		{CheckEphemeral, func(q *QE) { q.Ephemeral = 1 }},
		// dp 1+1+19 = 21 > (qp+up) 18; the daemon's 19 <= 20 keeps block-I/O quiet.
		{CheckDBMSTime, func(q *QE) { setClass(q, Daemon, func(u *Usage) { u.BlkioTicks = 19 }) }},
		{CheckZeroQueryTime, func(q *QE) {
			q.Classes = map[Class]Usage{Query: {}, Utility: {}, Daemon: {}}
			q.Overall.IOWait = 0
			*q = withProcesses(*q)
		}},
		// 12+3+7 = 22 > 21.
		{CheckQueryTime, func(q *QE) { setClass(q, Query, func(u *Usage) { u.BlkioTicks = 7 }) }},
		// overall user+nice+1 = 11 < qp u = 12.
		{CheckQueryUserTicks, func(q *QE) { q.Overall.User = 10 }},
		// 14+0+7 = 21 > 20.
		{CheckOverallComputation, func(q *QE) { q.Overall.System = 7 }},
		// 15+14+2 = 31 > 30; qp u+s 15 >= up 14 keeps ambiguity quiet.
		{CheckComputation, func(q *QE) { setClass(q, Utility, func(u *Usage) { u.UserTicks = 14 }) }},
		// a utility process with 21 > 20 ticks of block-I/O delay.
		{CheckBlockIO, func(q *QE) { setClass(q, Utility, func(u *Usage) { u.BlkioTicks = 21 }) }},
		// overall iowait 3 > qp blkio 2.
		{CheckIOWait, func(q *QE) { q.Overall.IOWait = 3 }},
		// qp u+s = 5+1 = 6 < up 7.
		{CheckAmbiguousQuery, func(q *QE) {
			setClass(q, Query, func(u *Usage) { u.UserTicks, u.SysTicks = 5, 1 })
			setClass(q, Utility, func(u *Usage) { u.UserTicks = 7 })
		}},
		{CheckNoQueryProcess, func(q *QE) { q.QueryProcessSeen = false }},
		{CheckTimedOut, func(q *QE) { q.TimedOut = true }},
		{CheckFailed, func(q *QE) { q.Err = "division by zero" }},
	}
	for _, c := range cases {
		qe := cleanQE(3)
		c.mutate(&qe)
		vs := alone(qe)
		if got := checkIDs(vs); !slices.Equal(got, []string{c.id}) {
			t.Errorf("%s: fired %v, want only it", c.id, got)
			continue
		}
		if v := vs[0]; v.Scope != ScopeQE || v.QE != 3 || v.Detail == "" {
			t.Errorf("%s: violation %+v lacks scope, QE or detail", c.id, v)
		}
	}
}

func TestPerQEBoundaries(t *testing.T) {
	// qp u+s+blkio = 21 = ceil(mt/10)+1: not more than it.
	qe := cleanQE(1)
	setClass(&qe, Query, func(u *Usage) { u.BlkioTicks = 6 })
	if vs := alone(qe); len(vs) != 0 {
		t.Errorf("21 ticks in 200 ms fired %v", checkIDs(vs))
	}
	// 201 ms rounds up to 21 ticks: 14+0+7 = 21 is then allowed.
	qe = cleanQE(1)
	qe.Measured = 201 * time.Millisecond
	qe.Overall.System = 7
	if vs := alone(qe); len(vs) != 0 {
		t.Errorf("21 overall ticks in 201 ms fired %v", checkIDs(vs))
	}
	// The values that violated the query-time check are kept.
	qe = cleanQE(1)
	setClass(&qe, Query, func(u *Usage) { u.BlkioTicks = 7 })
	v := alone(qe)[0]
	if v.Values[0] != (Value{"qp_ticks", 22}) || v.Values[1] != (Value{"mt_ms", 200}) {
		t.Errorf("values %+v", v.Values)
	}
}

func TestContextSwitches(t *testing.T) {
	// Direct: 14 > 10 + 3 x 1; 13 is not.
	qe := cleanQE(1)
	setClass(&qe, Query, func(u *Usage) { u.VolCtx, u.NonvolCtx = 14, 0 })
	if got := checkIDs(CheckQE(qe, SwitchStats{Mean: 10, SD: 1})); !slices.Equal(got, []string{CheckContextSwitches}) {
		t.Errorf("14 switches against 10+3x1: %v", got)
	}
	setClass(&qe, Query, func(u *Usage) { u.VolCtx = 13 })
	if vs := CheckQE(qe, SwitchStats{Mean: 10, SD: 1}); len(vs) != 0 {
		t.Errorf("13 switches against 10+3x1: %v", checkIDs(vs))
	}
	// Over a Q@C: eleven QEs with 12 switches and one with 100. Mean 19.33,
	// sample sd 25.40, limit 95.5 < 100. (With ten QEs or fewer no QE can
	// exceed its own Q@C's mean by 3 sample deviations.)
	var qes []QE
	for i := 1; i <= 12; i++ {
		qes = append(qes, cleanQE(i))
	}
	setClass(&qes[6], Query, func(u *Usage) { u.VolCtx, u.NonvolCtx = 90, 10 })
	sw := SwitchStatsOf(qes)
	for i, qe := range qes {
		fired := slices.Contains(checkIDs(CheckQE(qe, sw)), CheckContextSwitches)
		if fired != (i == 6) {
			t.Errorf("QE %d: context-switch check fired=%v (mean %.2f sd %.2f)", qe.Index, fired, sw.Mean, sw.SD)
		}
	}
}

func qacOf(card int64, ticks ...uint64) QaC {
	q := QaC{Query: "q1", Cardinality: card}
	for i, t := range ticks {
		qe := cleanQE(i + 1)
		setClass(&qe, Query, func(u *Usage) { u.UserTicks, u.SysTicks = t, 0 })
		q.QEs = append(q.QEs, qe)
	}
	return q
}

func TestPerQaCChecks(t *testing.T) {
	// mean 15, sd 0.63: steady.
	if vs := CheckQaC(qacOf(1000, 15, 15, 16, 15, 14, 15)); len(vs) != 0 {
		t.Errorf("steady Q@C fired %v", checkIDs(vs))
	}
	// mean 15, sample sd 3 x sqrt(6/5) = 3.29 > 0.2 x 15 = 3.
	vs := CheckQaC(qacOf(1000, 12, 18, 12, 18, 12, 18))
	if got := checkIDs(vs); !slices.Equal(got, []string{CheckExcessiveVariation}) {
		t.Errorf("varying Q@C fired %v", got)
	} else if vs[0].Query != "q1" || vs[0].Cardinality != 1000 || vs[0].Scope != ScopeQaC {
		t.Errorf("violation %+v", vs[0])
	}
	// sd 2 x sqrt(6/5) = 2.19 <= 3.
	if vs := CheckQaC(qacOf(1000, 13, 17, 13, 17, 13, 17)); len(vs) != 0 {
		t.Errorf("sd 2.19 against mean 15 fired %v", checkIDs(vs))
	}
	// The others 15,15,16,15,14,15: mean 15, sd 0.632. A first QE of 22
	// exceeds it by 7 > 6.32; one of 21 by 6.
	vs = CheckQaC(qacOf(1000, 22, 15, 15, 16, 15, 14, 15))
	if got := checkIDs(vs); !slices.Equal(got, []string{CheckResultCache}) {
		t.Errorf("result cache: fired %v", got)
	}
	if vs := CheckQaC(qacOf(1000, 21, 15, 15, 16, 15, 14, 15)); len(vs) != 0 {
		t.Errorf("first QE 6 ticks slower fired %v", checkIDs(vs))
	}
	// A first QE one tick slower than equal ones is not a result cache
	// (the others' sd is floored at a tick's rounding noise: 1 < 2.9).
	if vs := CheckQaC(qacOf(1000, 16, 15, 15, 15, 15, 15)); len(vs) != 0 {
		t.Errorf("one tick slower first QE fired %v", checkIDs(vs))
	}
	// QEs without the query process do not enter the statistics.
	q := qacOf(1000, 15, 15, 16, 15, 14, 15)
	q.QEs[2].QueryProcessSeen = false
	setClass(&q.QEs[2], Query, func(u *Usage) { *u = Usage{} })
	if vs := CheckQaC(q); len(vs) != 0 {
		t.Errorf("a QE without the query process counted: %v", checkIDs(vs))
	}
}

func TestMonotonicity(t *testing.T) {
	sweep := []MonoPoint{
		{Query: "q1", Plan: "A", Cardinality: 4000, Median: 200, SD: 10},
		{Query: "q1", Plan: "A", Cardinality: 1000, Median: 100, SD: 10},
		{Query: "q1", Plan: "A", Cardinality: 2000, Median: 90, SD: 4},
		// Another plan is not compared with plan A.
		{Query: "q1", Plan: "B", Cardinality: 3000, Median: 5, SD: 1},
		// Strict but not relaxed: 100-10 = 90 > 95+10 = 105 is false.
		{Query: "q2", Plan: "A", Cardinality: 1000, Median: 100, SD: 20},
		{Query: "q2", Plan: "A", Cardinality: 2000, Median: 95, SD: 20},
	}
	strict, relaxed, pairs := CheckMonotonicity(sweep, ScopePost, "computed time")
	// q1/A: (1000,2000) (1000,4000) (2000,4000); q2/A: (1000,2000).
	if pairs != 4 {
		t.Errorf("pairs %d, want 4", pairs)
	}
	if len(strict) != 2 || strict[0].Query != "q1" || strict[0].Cardinality != 1000 || strict[0].Other != 2000 ||
		strict[1].Query != "q2" || strict[0].Check != CheckStrictMonotonicity || strict[0].Scope != ScopePost {
		t.Errorf("strict %+v", strict)
	}
	// q1: 100-5 = 95 > 90+2 = 92.
	if len(relaxed) != 1 || relaxed[0].Query != "q1" || relaxed[0].Other != 2000 || relaxed[0].Check != CheckRelaxedMonotonicity {
		t.Errorf("relaxed %+v", relaxed)
	}
	if s, r, _ := CheckMonotonicity(sweep[:2], ScopeQaC, "x"); len(s)+len(r) != 0 {
		t.Errorf("growing sweep fired %v %v", s, r)
	}
}

func TestExperimentChecks(t *testing.T) {
	clean := func() *Experiment {
		q := QaC{Query: "q1", Cardinality: 1000}
		for i := 1; i <= 3; i++ {
			q.QEs = append(q.QEs, cleanQE(i))
		}
		return &Experiment{QaCs: []QaC{q}, Env: Environment{ComputedMeasure: MeasureTick}}
	}
	if vs := CheckExperiment(clean()); len(vs) != 0 {
		t.Fatalf("clean experiment fired %v", checkIDs(vs))
	}
	cases := []struct {
		id     string
		mutate func(*Experiment)
	}{
		{CheckMissingQueries, func(e *Experiment) { e.Env.MissingQueries = []string{"q7"} }},
		{CheckUniquePlan, func(e *Experiment) { e.QaCs[0].QEs[2].Plan = "Index Scan on t" }},
		{CheckUnderlyingMeasure, func(e *Experiment) { e.QaCs[0].QEs[1].Measured = 0 }},
		{CheckUnderlyingMeasure, func(e *Experiment) { e.QaCs[0].QEs[1].Overall = Overall{} }},
		{CheckDerivedMeasure, func(e *Experiment) { delete(e.QaCs[0].QEs[1].Classes, Query) }},
		{CheckDerivedMeasure, func(e *Experiment) { e.Env.ComputedMeasure = MeasureFine }},
		{CheckStealTime, func(e *Experiment) { e.QaCs[0].QEs[0].Overall.Steal = 1 }},
		{CheckGuestTime, func(e *Experiment) { e.QaCs[0].QEs[0].Overall.Guest = 1 }},
		{CheckOtherQueryProcess, func(e *Experiment) { e.Env.ForeignQueryProcesses = []string{"mysqld (1234)"} }},
		{CheckOtherUtilityProcess, func(e *Experiment) { e.Env.ForeignUtilityProcesses = []string{"postgres: walwriter"} }},
	}
	for _, c := range cases {
		e := clean()
		c.mutate(e)
		ids := checkIDs(CheckExperiment(e))
		if len(ids) == 0 || ids[0] != c.id || ids[len(ids)-1] != c.id {
			t.Errorf("%s: fired %v", c.id, ids)
		}
	}
	// Fine measures present: the fine measure is derivable.
	e := clean()
	e.Env.ComputedMeasure = MeasureFine
	for i := range e.QaCs[0].QEs {
		setClass(&e.QaCs[0].QEs[i], Query, func(u *Usage) { u.Fine, u.CPUUS = true, 150000 })
	}
	if vs := CheckExperiment(e); len(vs) != 0 {
		t.Errorf("fine measures present, fired %v", checkIDs(vs))
	}
	// A 5 ms QE may cross no tick: an empty /proc/stat difference is fine.
	e = clean()
	e.QaCs[0].QEs[0].Measured = 5 * time.Millisecond
	e.QaCs[0].QEs[0].Overall = Overall{}
	if vs := CheckExperiment(e); len(vs) != 0 {
		t.Errorf("short QE with empty overall fired %v", checkIDs(vs))
	}
}

func TestCheckTitles(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Checks {
		if seen[c.ID] || c.Title == "" || CheckTitle(c.ID) != c.Title {
			t.Errorf("check %+v duplicated or untitled", c)
		}
		seen[c.ID] = true
	}
	if n := len(Checks); n != 8+14+4 {
		t.Errorf("%d checks, want the paper's 25 and dbgauge's failed-QE check", n)
	}
}

// On two cores the machine may spend twice the wall clock in ticks: the
// overall-computation and computation checks allow cores x ceil(mt/10).
func TestComputationChecksScaleWithCores(t *testing.T) {
	qe := cleanQE(1)                                           // mt = 200 ms = 20 ticks
	qe.Overall.User = 30                                       // 30 + 5 system = 35 ticks of two CPUs
	setClass(&qe, Daemon, func(u *Usage) { u.UserTicks = 20 }) // qp+up+dp = 15+1+21 = 37 > 20+10
	one := checkIDs(alone(qe))
	if !slices.Contains(one, CheckOverallComputation) || !slices.Contains(one, CheckComputation) {
		t.Errorf("one core: %v, want overall_computation and computation", one)
	}
	qe.Cores = 2
	two := checkIDs(alone(qe))
	if slices.Contains(two, CheckOverallComputation) || slices.Contains(two, CheckComputation) {
		t.Errorf("two cores: %v, want neither computation check", two)
	}
	qe.Overall.User = 40 // 45 > 2 x 20
	if !slices.Contains(checkIDs(alone(qe)), CheckOverallComputation) {
		t.Errorf("two cores, 45 ticks in 20: overall_computation should fire")
	}
}
