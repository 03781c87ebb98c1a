package timing

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// The sanity checks of the protocol's step 1 (docs/ttp.md §3, seed 002
// Tables X-XII), with the predicates of the authors' SQL implementation.
// Every check has a stable id: the report, results.json and the tests use it.

// Scope says what a check is about.
type Scope string

const (
	ScopeExperiment Scope = "experiment" // any violation makes the run dirty
	ScopeQE         Scope = "qe"         // a violating QE is dropped (step 2)
	ScopeQaC        Scope = "qac"        // judged over a Q@C's QEs (step 3)
	ScopePost       Scope = "post"       // step 5, on the computed times
)

// Experiment-wide checks (seed 002 Table X).
const (
	CheckMissingQueries      = "missing_queries"
	CheckUniquePlan          = "unique_plan"
	CheckUnderlyingMeasure   = "underlying_measure"
	CheckDerivedMeasure      = "derived_measure"
	CheckStealTime           = "steal_time"
	CheckGuestTime           = "guest_time"
	CheckOtherQueryProcess   = "other_query_process"
	CheckOtherUtilityProcess = "other_utility_process"
)

// Per-QE checks (seed 002 Table XI), plus "failed", dbgauge's own.
const (
	CheckEphemeral          = "ephemeral"
	CheckDBMSTime           = "dbms_time"
	CheckZeroQueryTime      = "zero_query_time"
	CheckQueryTime          = "query_time"
	CheckQueryUserTicks     = "query_user_ticks"
	CheckOverallComputation = "overall_computation"
	CheckComputation        = "computation"
	CheckBlockIO            = "block_io"
	CheckIOWait             = "iowait"
	CheckContextSwitches    = "context_switches"
	CheckAmbiguousQuery     = "ambiguous_query_process"
	CheckNoQueryProcess     = "no_query_process"
	CheckTimedOut           = "timed_out"
	// CheckFailed is not in the paper: the engine answered the QE with an
	// error, so its times are not those of the query.
	CheckFailed = "failed"
)

// Per-Q@C checks (seed 002 Table XII); step 5 repeats the first and the
// monotonicity checks on the computed time.
const (
	CheckExcessiveVariation  = "excessive_variation"
	CheckResultCache         = "result_cache"
	CheckStrictMonotonicity  = "strict_monotonicity"
	CheckRelaxedMonotonicity = "relaxed_monotonicity"
)

// CheckInfo describes a check for reports.
type CheckInfo struct {
	ID    string
	Scope Scope
	Title string // the paper's name
}

// Checks lists every check in the order of the paper's tables.
var Checks = []CheckInfo{
	{CheckMissingQueries, ScopeExperiment, "missing queries"},
	{CheckUniquePlan, ScopeExperiment, "more than one plan in a Q@C"},
	{CheckUnderlyingMeasure, ScopeExperiment, "missing or empty underlying measure"},
	{CheckDerivedMeasure, ScopeExperiment, "missing derived measure"},
	{CheckStealTime, ScopeExperiment, "steal time"},
	{CheckGuestTime, ScopeExperiment, "guest time"},
	{CheckOtherQueryProcess, ScopeExperiment, "query process of another DBMS"},
	{CheckOtherUtilityProcess, ScopeExperiment, "utility process of another DBMS"},
	{CheckEphemeral, ScopeQE, "ephemeral process"},
	{CheckDBMSTime, ScopeQE, "DBMS time"},
	{CheckZeroQueryTime, ScopeQE, "zero query time"},
	{CheckQueryTime, ScopeQE, "query time"},
	{CheckQueryUserTicks, ScopeQE, "query user ticks"},
	{CheckOverallComputation, ScopeQE, "overall computation time"},
	{CheckComputation, ScopeQE, "computation time"},
	{CheckBlockIO, ScopeQE, "block-I/O delay time"},
	{CheckIOWait, ScopeQE, "IOWait time"},
	{CheckContextSwitches, ScopeQE, "context switches"},
	{CheckAmbiguousQuery, ScopeQE, "ambiguous query process"},
	{CheckNoQueryProcess, ScopeQE, "no query process"},
	{CheckTimedOut, ScopeQE, "timed-out QE"},
	{CheckFailed, ScopeQE, "failed QE"},
	{CheckExcessiveVariation, ScopeQaC, "excessive variation in query computation time"},
	{CheckResultCache, ScopeQaC, "possible query result cache"},
	{CheckStrictMonotonicity, ScopeQaC, "strict monotonicity"},
	{CheckRelaxedMonotonicity, ScopeQaC, "relaxed monotonicity"},
}

// CheckTitle is the paper's name of a check id (the id if unknown).
func CheckTitle(id string) string {
	for _, c := range Checks {
		if c.ID == id {
			return c.Title
		}
	}
	return id
}

// Value is one named value a check looked at.
type Value struct {
	Name string  `json:"name"`
	V    float64 `json:"value"`
}

// Violation is one failed check: which check, what it concerns, the values
// that violated it and the predicate filled in with them.
type Violation struct {
	Check       string `json:"check"`
	Scope       Scope  `json:"scope"`
	Query       string `json:"query,omitempty"`
	Cardinality int64  `json:"cardinality,omitempty"`
	// Other is the larger cardinality of a monotonicity pair.
	Other  int64   `json:"other_cardinality,omitempty"`
	QE     int     `json:"qe,omitempty"` // the QE's Index
	Values []Value `json:"values,omitempty"`
	Detail string  `json:"detail"`
}

// Where names what the violation concerns, for reports.
func (v Violation) Where() string {
	var parts []string
	if v.Query != "" {
		parts = append(parts, v.Query)
	}
	switch {
	case v.Other != 0:
		parts = append(parts, fmt.Sprintf("cardinalities %d < %d", v.Cardinality, v.Other))
	case v.Cardinality != 0:
		parts = append(parts, fmt.Sprintf("cardinality %d", v.Cardinality))
	}
	if v.QE != 0 {
		parts = append(parts, fmt.Sprintf("QE %d", v.QE))
	}
	return strings.Join(parts, ", ")
}

func violation(id string, scope Scope, detail string, vals ...Value) Violation {
	return Violation{Check: id, Scope: scope, Values: vals, Detail: detail}
}

// SwitchStats are the mean and sample standard deviation of the query
// process's context switches over a Q@C's QEs, which the context-switch
// check compares each QE with.
type SwitchStats struct{ Mean, SD float64 }

// SwitchStatsOf computes them over the QEs that saw the query process.
func SwitchStatsOf(qes []QE) SwitchStats {
	var xs []float64
	for _, qe := range withQueryProcess(qes) {
		xs = append(xs, float64(ctxSwitches(qe.Classes[Query])))
	}
	s := stats.Summarize(xs)
	return SwitchStats{Mean: s.Mean, SD: s.StdDev}
}

// CheckQE runs the per-QE checks on one execution. sw are the context-switch
// statistics of its Q@C.
func CheckQE(qe QE, sw SwitchStats) []Violation {
	var out []Violation
	add := func(id, detail string, vals ...Value) {
		v := violation(id, ScopeQE, detail, vals...)
		v.QE = qe.Index
		out = append(out, v)
	}
	qp, up, dp := qe.Classes[Query], qe.Classes[Utility], qe.Classes[Daemon]
	o := qe.Overall
	mt := mtTicks(qe.Measured)
	mtv := Value{"mt_ms", MeasuredMS(qe)}

	if qe.Ephemeral > 0 {
		add(CheckEphemeral, fmt.Sprintf("%d processes started and ended unseen", qe.Ephemeral),
			Value{"ephemeral", float64(qe.Ephemeral)})
	}
	if dbms, other := ioTicks(qp)+ioTicks(up), ioTicks(dp); dbms < other {
		add(CheckDBMSTime, fmt.Sprintf("(qp+up)(u+s+blkio) = %d < dp(u+s+blkio) = %d", dbms, other),
			Value{"dbms_ticks", float64(dbms)}, Value{"daemon_ticks", float64(other)})
	}
	if ioTicks(qp) == 0 {
		add(CheckZeroQueryTime, "qp u+s+blkio = 0", Value{"qp_ticks", 0})
	}
	if t := ioTicks(qp); t > mt+1 {
		add(CheckQueryTime, fmt.Sprintf("qp u+s+blkio = %d > ceil(mt/10)+1 = %d", t, mt+1),
			Value{"qp_ticks", float64(t)}, mtv)
	}
	if limit := int64(o.User+o.Nice) + 1; limit < int64(qp.UserTicks) {
		add(CheckQueryUserTicks, fmt.Sprintf("overall user+nice+1 = %d < qp u = %d", limit, qp.UserTicks),
			Value{"overall_user_nice", float64(o.User + o.Nice)}, Value{"qp_user_ticks", float64(qp.UserTicks)})
	}
	// DECISION (several cores): the machine's ticks in mt are at most
	// cores x ceil(mt/10); the paper's predicates are the one-core case.
	cores := int64(max(qe.Cores, 1))
	if all := int64(o.User + o.Nice + o.System); all > cores*mt {
		add(CheckOverallComputation, fmt.Sprintf("overall user+nice+system = %d > %d cores x ceil(mt/10) = %d", all, cores, cores*mt),
			Value{"overall_ticks", float64(all)}, mtv)
	}
	// The benchmark's own process is a class of its own (docs/ttp.md §1):
	// the predicate's qp+up+dp leaves it out.
	if all := cpuTicks(qp) + cpuTicks(up) + cpuTicks(dp); all > cores*mt+10 {
		add(CheckComputation, fmt.Sprintf("(qp+up+dp)(u+s) = %d > %d cores x ceil(mt/10)+10 = %d", all, cores, cores*mt+10),
			Value{"all_cpu_ticks", float64(all)}, mtv)
	}
	if name, blk, bad := blockIOOutlier(qe, mt); bad {
		add(CheckBlockIO, fmt.Sprintf("%s blkio = %d > ceil(mt/10) = %d", name, blk, mt),
			Value{"blkio_ticks", float64(blk)}, mtv)
	}
	if o.IOWait > qp.BlkioTicks {
		add(CheckIOWait, fmt.Sprintf("overall iowait = %d > qp blkio = %d", o.IOWait, qp.BlkioTicks),
			Value{"overall_iowait", float64(o.IOWait)}, Value{"qp_blkio_ticks", float64(qp.BlkioTicks)})
	}
	if n, limit := float64(ctxSwitches(qp)), sw.Mean+3*sw.SD; qe.QueryProcessSeen && n > limit {
		add(CheckContextSwitches, fmt.Sprintf("qp switches = %.0f > Q@C mean + 3 sd = %.1f + 3 x %.1f", n, sw.Mean, sw.SD),
			Value{"qp_switches", n}, Value{"qac_mean", sw.Mean}, Value{"qac_sd", sw.SD})
	}
	if q, u := cpuTicks(qp), cpuTicks(up); q < u {
		add(CheckAmbiguousQuery, fmt.Sprintf("qp u+s = %d < up u+s = %d", q, u),
			Value{"qp_cpu_ticks", float64(q)}, Value{"up_cpu_ticks", float64(u)})
	}
	if !qe.QueryProcessSeen {
		add(CheckNoQueryProcess, "the query process was not in both snapshots")
	}
	if qe.TimedOut {
		add(CheckTimedOut, "the execution timed out", mtv)
	}
	if qe.Err != "" {
		add(CheckFailed, "the execution failed: "+qe.Err)
	}
	return out
}

// blockIOOutlier finds a process whose block-I/O delay exceeds the
// measured time (a delay-accounting counter gone wrong, docs/ttp.md §2):
// every process of the QE, and the query class, which is the query thread
// when the query process is a thread of a larger process.
func blockIOOutlier(qe QE, mt int64) (name string, blk int64, bad bool) {
	for _, p := range qe.Processes {
		if b := int64(p.Usage.BlkioTicks); b > mt {
			return fmt.Sprintf("process %d (%s, %s)", p.PID, p.Comm, p.Class), b, true
		}
	}
	if b := int64(qe.Classes[Query].BlkioTicks); b > mt {
		return "query process", b, true
	}
	return "", 0, false
}

// withQueryProcess keeps the QEs that saw the query process: the Q@C checks
// are over the query process's measures, which the others lack.
func withQueryProcess(qes []QE) []QE {
	var out []QE
	for _, qe := range qes {
		if qe.QueryProcessSeen {
			out = append(out, qe)
		}
	}
	return out
}

// CheckQaC runs the per-Q@C checks of step 1 on all of a Q@C's QEs that saw
// the query process: excessive variation and possible result cache. Both
// are over the query process's u+s.
func CheckQaC(q QaC) []Violation {
	qes := withQueryProcess(q.QEs)
	var out []Violation
	add := func(v Violation) {
		v.Query, v.Cardinality = q.Query, q.Cardinality
		out = append(out, v)
	}
	if len(qes) < 2 {
		return nil
	}
	xs := make([]float64, len(qes))
	for i, qe := range qes {
		xs[i] = float64(cpuTicks(qe.Classes[Query]))
	}
	if v, bad := excessiveVariation(xs, "qp u+s", ScopeQaC); bad {
		add(v)
	}
	if v, bad := resultCache(xs); bad {
		add(v)
	}
	return out
}

// excessiveVariation: stddev > 0.2 x mean (sample standard deviation, as
// Oracle's STDDEV in the authors' SQL).
func excessiveVariation(xs []float64, what string, scope Scope) (Violation, bool) {
	s := stats.Summarize(xs)
	if s.N < 2 || !(s.StdDev > 0.2*s.Mean) {
		return Violation{}, false
	}
	return violation(CheckExcessiveVariation, scope,
		fmt.Sprintf("stddev(%s) = %.4g > 0.2 x mean = 0.2 x %.4g", what, s.StdDev, s.Mean),
		Value{"stddev", s.StdDev}, Value{"mean", s.Mean}), true
}

// resultCache: the first QE is far slower than the others, as when the
// engine answers the later ones from a result cache. The spec's "first
// QE's qp u+s > 10 x stddev" is read as its excess over the mean of the
// other QEs against their standard deviation: compared with the raw value
// it would flag every steady Q@C, and with the stddev over all QEs it could
// never fire (one value of n lies at most (n-1)/sqrt(n) sample deviations
// from their mean, 2.8 for ten). Tick counts that are all equal have a
// zero standard deviation but not a zero uncertainty: the deviation is
// taken as at least a tick's rounding noise, 1/sqrt(12) tick, so that a
// first QE one tick slower than nine equal ones is not a result cache.
func resultCache(xs []float64) (Violation, bool) {
	first, rest := xs[0], stats.Summarize(xs[1:])
	sd := math.Max(rest.StdDev, tickNoise)
	if !(first-rest.Mean > 10*sd) {
		return Violation{}, false
	}
	return violation(CheckResultCache, ScopeQaC,
		fmt.Sprintf("first QE's qp u+s = %.0f exceeds the others' mean %.4g by more than 10 x their stddev %.4g", first, rest.Mean, sd),
		Value{"first", first}, Value{"others_mean", rest.Mean}, Value{"others_sd", sd}), true
}

// tickNoise is the standard deviation of rounding to whole ticks (a
// uniform error over one tick).
var tickNoise = 1 / math.Sqrt(12)

// MonoPoint is one Q@C's time for the monotonicity checks.
type MonoPoint struct {
	Query, Plan string
	Cardinality int64
	Median, SD  float64 // milliseconds
}

// CheckMonotonicity compares every pair of points of the same query and
// plan (as the authors' SQL does, not only adjacent cardinalities): strict
// when the larger cardinality has the smaller median, relaxed when
// median1 - sd1/2 > median2 + sd2/2. pairs is the number of pairs compared.
func CheckMonotonicity(points []MonoPoint, scope Scope, what string) (strict, relaxed []Violation, pairs int) {
	ps := append([]MonoPoint(nil), points...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Query != ps[j].Query {
			return ps[i].Query < ps[j].Query
		}
		if ps[i].Plan != ps[j].Plan {
			return ps[i].Plan < ps[j].Plan
		}
		return ps[i].Cardinality < ps[j].Cardinality
	})
	for i, a := range ps {
		for _, b := range ps[i+1:] {
			if b.Query != a.Query || b.Plan != a.Plan {
				break
			}
			if b.Cardinality <= a.Cardinality {
				continue
			}
			pairs++
			mk := func(id, detail string) Violation {
				v := violation(id, scope, detail,
					Value{"median1", a.Median}, Value{"sd1", a.SD}, Value{"median2", b.Median}, Value{"sd2", b.SD})
				v.Query, v.Cardinality, v.Other = a.Query, a.Cardinality, b.Cardinality
				return v
			}
			if a.Median > b.Median {
				strict = append(strict, mk(CheckStrictMonotonicity,
					fmt.Sprintf("median %s %.4g ms at %d > %.4g ms at %d", what, a.Median, a.Cardinality, b.Median, b.Cardinality)))
			}
			if a.Median-a.SD/2 > b.Median+b.SD/2 {
				relaxed = append(relaxed, mk(CheckRelaxedMonotonicity,
					fmt.Sprintf("%s median1 - sd1/2 = %.4g > median2 + sd2/2 = %.4g (cardinality %d < %d)",
						what, a.Median-a.SD/2, b.Median+b.SD/2, a.Cardinality, b.Cardinality)))
			}
		}
	}
	return strict, relaxed, pairs
}

// emptyOverallMS: a QE this long crossed a tick on every CPU, so its
// /proc/stat difference cannot be all zero unless the snapshot failed.
const emptyOverallMS = 2 * TickMS

// CheckExperiment runs the experiment-wide checks; any violation makes the
// run dirty.
func CheckExperiment(e *Experiment) []Violation {
	var out []Violation
	if n := len(e.Env.MissingQueries); n > 0 {
		out = append(out, violation(CheckMissingQueries, ScopeExperiment,
			fmt.Sprintf("%d queries missing: %s", n, strings.Join(e.Env.MissingQueries, ", ")),
			Value{"missing", float64(n)}))
	}
	for _, q := range e.QaCs {
		at := func(v Violation, qe int) Violation {
			v.Query, v.Cardinality, v.QE = q.Query, q.Cardinality, qe
			return v
		}
		if plans := distinctPlans(q.QEs); len(plans) > 1 {
			out = append(out, at(violation(CheckUniquePlan, ScopeExperiment,
				fmt.Sprintf("%d plans in one Q@C", len(plans)), Value{"plans", float64(len(plans))}), 0))
		}
		for _, qe := range q.QEs {
			if why := underlyingMissing(qe); why != "" {
				out = append(out, at(violation(CheckUnderlyingMeasure, ScopeExperiment, why), qe.Index))
			}
			if why := derivedMissing(qe, e.Env.ComputedMeasure); why != "" {
				out = append(out, at(violation(CheckDerivedMeasure, ScopeExperiment, why), qe.Index))
			}
			if s := qe.Overall.Steal; s > 0 {
				out = append(out, at(violation(CheckStealTime, ScopeExperiment,
					fmt.Sprintf("overall steal = %d ticks > 0", s), Value{"steal", float64(s)}), qe.Index))
			}
			if g := qe.Overall.Guest + qe.Overall.GuestNice; g > 0 {
				out = append(out, at(violation(CheckGuestTime, ScopeExperiment,
					fmt.Sprintf("overall guest+guest_nice = %d ticks > 0", g), Value{"guest", float64(g)}), qe.Index))
			}
		}
	}
	if ps := e.Env.ForeignQueryProcesses; len(ps) > 0 {
		out = append(out, violation(CheckOtherQueryProcess, ScopeExperiment,
			"query processes of another DBMS present: "+strings.Join(ps, ", "), Value{"processes", float64(len(ps))}))
	}
	if ps := e.Env.ForeignUtilityProcesses; len(ps) > 0 {
		out = append(out, violation(CheckOtherUtilityProcess, ScopeExperiment,
			"utility processes of another DBMS present: "+strings.Join(ps, ", "), Value{"processes", float64(len(ps))}))
	}
	return out
}

func distinctPlans(qes []QE) []string {
	seen := map[string]bool{}
	var out []string
	for _, qe := range qes {
		if qe.Plan != "" && !seen[qe.Plan] {
			seen[qe.Plan] = true
			out = append(out, qe.Plan)
		}
	}
	return out
}

// underlyingMissing: the raw measures of a QE are absent or empty.
func underlyingMissing(qe QE) string {
	o := qe.Overall
	switch {
	case qe.Measured <= 0:
		return "no measured time"
	case qe.Classes == nil:
		return "no per-process measures"
	case MeasuredMS(qe) >= emptyOverallMS &&
		o.User+o.Nice+o.System+o.Idle+o.IOWait+o.IRQ+o.SoftIRQ+o.Steal == 0:
		return fmt.Sprintf("empty /proc/stat difference over %.1f ms", MeasuredMS(qe))
	}
	return ""
}

// derivedMissing: a measure derived from the raw ones is absent: the query
// class of a QE that saw the query process, or the fine-grained measures
// when the run's computed time is the fine one.
func derivedMissing(qe QE, measure string) string {
	if qe.Classes == nil || !qe.QueryProcessSeen {
		return ""
	}
	qp, ok := qe.Classes[Query]
	switch {
	case !ok:
		return "no query-process measures although the query process was seen"
	case measure == MeasureFine && !qp.Fine:
		return "no fine-grained (taskstats/schedstat) measures for the query process"
	}
	return ""
}
