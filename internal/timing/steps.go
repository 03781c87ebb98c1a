package timing

import (
	"math"
	"sort"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// ProtocolVersion names the protocol in reports.
const ProtocolVersion = "TTPv2 (dbgauge)"

// The computed measure a run reports (docs/ttp.md §4).
const (
	MeasureTick = "tick" // the paper's, from clock ticks
	MeasureFine = "fine" // from taskstats (µs) or schedstat (ns)
)

// QaC is one query at one cardinality: its executions in order.
type QaC struct {
	Query       string
	Cardinality int64
	QEs         []QE
	// Restarts counts the plan changes that restarted it (seed 002 §3.2.3).
	Restarts int
}

// Experiment is what the protocol analyses: the Q@Cs and the machine.
type Experiment struct {
	QaCs []QaC
	Env  Environment
}

// Environment is what the experiment-wide checks and the reporting
// paragraph need to know about the machine and the run.
type Environment struct {
	OnlineCores    int
	Affinity       string // CPU list used, e.g. "0-1"
	Virtualization string // "" on bare metal, else e.g. "kvm"
	Kernel         string
	OS             string
	Hardware       string
	// DelayAccounting as DelayAccountingState words it: "on (...)",
	// "off (...)" or "unavailable (...)".
	DelayAccounting string
	CacheMode       string   // "cold" or "warm"
	NotFlushed      []string // caches a cold run could not empty
	DaemonsRunning  string   // daemons left running, "" if none noted
	// Processes of another DBMS seen during the run.
	ForeignQueryProcesses   []string
	ForeignUtilityProcesses []string
	MissingQueries          []string
	Protocol                string // ProtocolVersion if empty
	QEsPerQaC               int
	ComputedMeasure         string // MeasureTick or MeasureFine
	// Notes are further deviations, worded as clauses (the session's:
	// taskstats unavailable, parallel query switched off).
	Notes []string
}

// Estimate is a median over a Q@C's retained QEs with its percentile
// bootstrap 95% interval and its relative standard deviation. Undefined
// parts are zero: all of it with N = 0, RSD with N < 2.
type Estimate struct {
	Median, Low, High float64
	RSD               float64
	N                 int
}

// Confidence level and bootstrap of the estimates (docs/ttp.md §4).
const ciLevel = 0.95

func estimate(xs []float64) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	ci := stats.BootstrapMedianCI(xs, ciLevel, stats.DefaultResamples, stats.DefaultBootstrapSeed)
	return Estimate{Median: stats.Median(xs), Low: ci.Low, High: ci.High, RSD: finite(stats.RSD(xs)), N: len(xs)}
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// QEResult is one QE as the protocol saw it.
type QEResult struct {
	Index      int
	MeasuredMS float64
	ComputedMS float64 // tick-based (step 4)
	FineMS     float64 // fine-grained, when FineOK
	FineOK     bool
	Dropped    bool     // step 2
	Checks     []string // ids of the per-QE checks it failed
}

// Step-3 reasons for dropping a Q@C, in the order of the sub-steps.
const (
	DropNoQEsLeft       = "no_qes_left"           // step 2 dropped all of them
	DropExcessive       = CheckExcessiveVariation // 3(i)
	DropResultCache     = CheckResultCache        // 3(i)
	DropNoQueryProcess  = "query_process_missing" // 3(ii)
	DropTooShort        = "too_short"             // 3(iii) mean mt <= 2 ticks
	DropTooFewQEs       = "too_few_qes"           // 3(iv) fewer than 6 QEs
	minQEs              = 6
	shortMS             = 2 * TickMS
	postVariationFactor = 0.2
)

// QaCResult is one Q@C after the protocol.
type QaCResult struct {
	Query       string
	Cardinality int64
	Plan        string // the first QE's
	Restarts    int
	QEs         []QEResult
	Kept        int // QEs left after step 2
	Dropped     int // QEs dropped in step 2
	// Retained: the Q@C survived step 3; DropReasons says why not (every
	// sub-step that applies, in order).
	Retained    bool
	DropReasons []string
	// Over the QEs kept in step 2 (for a dropped Q@C too, for reference):
	// measured, tick-computed and fine-computed time in ms. Fine counts
	// only the QEs with fine measures.
	Measured, Computed, Fine Estimate
	// The same over every QE that ran and saw the query process, before
	// step 2: what a disturbed run gives when the checks drop everything,
	// to compare the two times' spread (not the protocol's result).
	AllMeasured, AllComputed, AllFine Estimate
}

// Time is the Q@C's computed time (step 4): the median of the measure the
// run reports.
func (r QaCResult) Time(measure string) float64 {
	if measure == MeasureFine {
		return r.Fine.Median
	}
	return r.Computed.Median
}

// Step3Counts is how many Q@Cs each sub-step of step 3 dropped, each
// counted at the first sub-step that drops it (seed 002 Table XIII).
type Step3Counts struct {
	NoQEsLeft, VariationOrCache, NoQueryProcess, TooShort, TooFewQEs int
}

// PostChecks are step 5's results, on the tick-computed time.
type PostChecks struct {
	// Excessive variation of the computed time, over retained Q@Cs.
	ExcessiveVariation    []Violation
	ExcessiveVariationPct float64
	// Monotonicity of the computed medians over pairs of retained Q@Cs of
	// the same query and plan.
	Strict, Relaxed       []Violation
	Pairs                 int
	StrictPct, RelaxedPct float64
	// Mean of |measured - computed| / measured over the Q@Cs' medians, in
	// percent, for the retained and for the dropped Q@Cs (N: how many had
	// a measured median to compare with).
	RelDiffRetainedPct, RelDiffDroppedPct float64
	RelDiffRetainedN, RelDiffDroppedN     int
	// NonVarying lists the model measures that had the same value in every
	// retained QE.
	NonVarying []string
}

// Analysis is the outcome of the protocol's five steps over an experiment.
type Analysis struct {
	Env Environment
	// Step 1.
	Dirty         bool        // an experiment-wide check failed
	Experiment    []Violation // experiment-wide
	QEViolations  []Violation
	QaCViolations []Violation // excessive variation, result cache, monotonicity (on measured time)
	QECheckCounts map[string]int
	Pairs         int // Q@C pairs the step-1 monotonicity checks compared
	// Steps 2 and 3.
	TotalQEs, DroppedQEs   int
	TotalQaCs, DroppedQaCs int
	Step3                  Step3Counts
	QEsDroppedPct          float64
	QaCsDroppedPct         float64
	// Step 4.
	QaCs []QaCResult
	// Step 5.
	Post PostChecks
}

// Analyze runs the protocol's five steps (docs/ttp.md §3) over e.
func Analyze(e *Experiment) *Analysis {
	a := &Analysis{Env: e.Env, QECheckCounts: map[string]int{}}
	if a.Env.Protocol == "" {
		a.Env.Protocol = ProtocolVersion
	}
	if a.Env.ComputedMeasure == "" {
		a.Env.ComputedMeasure = MeasureTick
	}

	// Step 1: every check, every violation kept.
	a.Experiment = CheckExperiment(e)
	a.Dirty = len(a.Experiment) > 0
	var mono []MonoPoint
	for _, q := range e.QaCs {
		r := QaCResult{Query: q.Query, Cardinality: q.Cardinality, Restarts: q.Restarts}
		if len(q.QEs) > 0 {
			r.Plan = q.QEs[0].Plan
		}
		sw := SwitchStatsOf(q.QEs)
		var measured []float64
		for _, qe := range q.QEs {
			vs := CheckQE(qe, sw)
			qr := QEResult{Index: qe.Index, MeasuredMS: MeasuredMS(qe), ComputedMS: TickComputedMS(qe)}
			qr.FineMS, qr.FineOK = FineComputedMS(qe)
			for _, v := range vs {
				v.Query, v.Cardinality = q.Query, q.Cardinality
				a.QEViolations = append(a.QEViolations, v)
				qr.Checks = append(qr.Checks, v.Check)
				a.QECheckCounts[v.Check]++
			}
			// Step 2: a QE that failed a per-QE check is dropped.
			qr.Dropped = len(vs) > 0
			if qr.Dropped {
				r.Dropped++
			} else {
				r.Kept++
			}
			r.QEs = append(r.QEs, qr)
			measured = append(measured, qr.MeasuredMS)
		}
		qacVs := CheckQaC(q)
		a.QaCViolations = append(a.QaCViolations, qacVs...)
		if len(measured) > 0 {
			s := stats.Summarize(measured)
			mono = append(mono, MonoPoint{Query: q.Query, Plan: r.Plan, Cardinality: q.Cardinality, Median: s.Median, SD: s.StdDev})
		}
		step3(&r, q, qacVs, &a.Step3)
		a.TotalQEs += len(q.QEs)
		a.DroppedQEs += r.Dropped
		a.TotalQaCs++
		if !r.Retained {
			a.DroppedQaCs++
		}
		a.QaCs = append(a.QaCs, r)
	}
	// Step 1 judges monotonicity on the medians of the measured time over
	// all QEs (the spec leaves step 1's time open: it is the one there is
	// before step 4); step 5 repeats it on the computed time.
	strict, relaxed, pairs := CheckMonotonicity(mono, ScopeQaC, "measured time")
	a.QaCViolations = append(append(a.QaCViolations, strict...), relaxed...)
	a.Pairs = pairs
	a.QEsDroppedPct = pct(a.DroppedQEs, a.TotalQEs)
	a.QaCsDroppedPct = pct(a.DroppedQaCs, a.TotalQaCs)

	// Step 5.
	a.Post = postChecks(e, a.QaCs)
	return a
}

// step3 decides whether a Q@C survives (docs/ttp.md §3, step 3) and computes
// its estimates over the QEs step 2 kept (step 4).
func step3(r *QaCResult, q QaC, qacVs []Violation, n *Step3Counts) {
	var mt, ct, fine []float64
	kept, seen := 0, true
	for i, qe := range q.QEs {
		qr := r.QEs[i]
		if qr.Dropped {
			continue
		}
		kept++
		mt = append(mt, qr.MeasuredMS)
		ct = append(ct, qr.ComputedMS)
		if qr.FineOK {
			fine = append(fine, qr.FineMS)
		}
		seen = seen && qe.QueryProcessSeen
	}
	r.Measured, r.Computed, r.Fine = estimate(mt), estimate(ct), estimate(fine)
	var amt, act, afine []float64
	for i, qe := range q.QEs {
		if qe.Err != "" || !qe.QueryProcessSeen {
			continue
		}
		qr := r.QEs[i]
		amt, act = append(amt, qr.MeasuredMS), append(act, qr.ComputedMS)
		if qr.FineOK {
			afine = append(afine, qr.FineMS)
		}
	}
	r.AllMeasured, r.AllComputed, r.AllFine = estimate(amt), estimate(act), estimate(afine)

	first := ""
	reason := func(id string) {
		r.DropReasons = append(r.DropReasons, id)
		if first == "" {
			first = id
		}
	}
	if kept == 0 {
		reason(DropNoQEsLeft)
	}
	for _, v := range qacVs {
		if v.Check == CheckExcessiveVariation || v.Check == CheckResultCache {
			reason(v.Check)
		}
	}
	if kept > 0 && !seen {
		reason(DropNoQueryProcess)
	}
	if kept > 0 && stats.Summarize(mt).Mean <= shortMS {
		reason(DropTooShort)
	}
	if kept < minQEs {
		reason(DropTooFewQEs)
	}
	r.Retained = first == ""
	switch first {
	case DropNoQEsLeft:
		n.NoQEsLeft++
	case DropExcessive, DropResultCache:
		n.VariationOrCache++
	case DropNoQueryProcess:
		n.NoQueryProcess++
	case DropTooShort:
		n.TooShort++
	case DropTooFewQEs:
		n.TooFewQEs++
	}
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// postChecks is step 5: on the retained Q@Cs' tick-computed times.
func postChecks(e *Experiment, rs []QaCResult) PostChecks {
	var p PostChecks
	var mono []MonoPoint
	var retainedRel, droppedRel []float64
	var retainedQEs []QE
	retained := 0
	for i, r := range rs {
		var ct []float64
		for j, qr := range r.QEs {
			if !qr.Dropped {
				ct = append(ct, qr.ComputedMS)
				if r.Retained {
					retainedQEs = append(retainedQEs, e.QaCs[i].QEs[j])
				}
			}
		}
		rel, ok := relDiff(r, e.QaCs[i])
		if !r.Retained {
			if ok {
				droppedRel = append(droppedRel, rel)
			}
			continue
		}
		retained++
		if ok {
			retainedRel = append(retainedRel, rel)
		}
		if v, bad := excessiveVariation(ct, "computed time", ScopePost); bad {
			v.Query, v.Cardinality = r.Query, r.Cardinality
			p.ExcessiveVariation = append(p.ExcessiveVariation, v)
		}
		mono = append(mono, MonoPoint{Query: r.Query, Plan: r.Plan, Cardinality: r.Cardinality,
			Median: r.Computed.Median, SD: stats.Summarize(ct).StdDev})
	}
	p.ExcessiveVariationPct = pct(len(p.ExcessiveVariation), retained)
	p.Strict, p.Relaxed, p.Pairs = CheckMonotonicity(mono, ScopePost, "computed time")
	p.StrictPct, p.RelaxedPct = pct(len(p.Strict), p.Pairs), pct(len(p.Relaxed), p.Pairs)
	p.RelDiffRetainedPct, p.RelDiffRetainedN = 100*mean(retainedRel), len(retainedRel)
	p.RelDiffDroppedPct, p.RelDiffDroppedN = 100*mean(droppedRel), len(droppedRel)
	p.NonVarying = nonVarying(retainedQEs)
	return p
}

// relDiff is |measured - computed| / measured of a Q@C's medians. A
// dropped Q@C with no QE left after step 2 is compared over its QEs that
// saw the query process, so that every dropped Q@C with a query process
// counts.
func relDiff(r QaCResult, q QaC) (float64, bool) {
	mt, ct := r.Measured.Median, r.Computed.Median
	if r.Kept == 0 {
		var ms, cs []float64
		for _, qe := range withQueryProcess(q.QEs) {
			ms = append(ms, MeasuredMS(qe))
			cs = append(cs, TickComputedMS(qe))
		}
		if len(ms) == 0 {
			return 0, false
		}
		mt, ct = stats.Median(ms), stats.Median(cs)
	}
	if mt <= 0 {
		return 0, false
	}
	return math.Abs(mt-ct) / mt, true
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return stats.Summarize(xs).Mean
}

// modelMeasures are the measures of the causal model (seed 002 Fig. 3)
// that the non-varying post check looks at.
var modelMeasures = []struct {
	name string
	get  func(QE) float64
}{
	{"measured time", MeasuredMS},
	{"query process user ticks", func(q QE) float64 { return float64(q.Classes[Query].UserTicks) }},
	{"query process system ticks", func(q QE) float64 { return float64(q.Classes[Query].SysTicks) }},
	{"query process block-I/O delay ticks", func(q QE) float64 { return float64(q.Classes[Query].BlkioTicks) }},
	{"query process major faults", func(q QE) float64 { return float64(q.Classes[Query].MajFlt) }},
	{"utility user+system ticks", func(q QE) float64 { return float64(cpuTicks(q.Classes[Utility])) }},
	{"utility block-I/O delay ticks", func(q QE) float64 { return float64(q.Classes[Utility].BlkioTicks) }},
	{"utility major faults", func(q QE) float64 { return float64(q.Classes[Utility].MajFlt) }},
	{"daemon user+system ticks", func(q QE) float64 { return float64(cpuTicks(q.Classes[Daemon])) }},
	{"daemon block-I/O delay ticks", func(q QE) float64 { return float64(q.Classes[Daemon].BlkioTicks) }},
	{"daemon major faults", func(q QE) float64 { return float64(q.Classes[Daemon].MajFlt) }},
	{"overall IOWait ticks", func(q QE) float64 { return float64(q.Overall.IOWait) }},
	{"overall SoftIRQ ticks", func(q QE) float64 { return float64(q.Overall.SoftIRQ) }},
}

// nonVarying names the model measures with one value in every QE (none
// with fewer than two QEs: a single value says nothing).
func nonVarying(qes []QE) []string {
	if len(qes) < 2 {
		return nil
	}
	var out []string
	for _, m := range modelMeasures {
		first, same := m.get(qes[0]), true
		for _, qe := range qes[1:] {
			if m.get(qe) != first {
				same = false
				break
			}
		}
		if same {
			out = append(out, m.name)
		}
	}
	sort.Strings(out)
	return out
}
