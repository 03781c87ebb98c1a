package experiment

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/timing"
)

// analyze runs the protocol's five steps over what was measured and puts
// the outcome into the results, QE by QE.
func (r *qacRun) analyze() {
	if len(r.exp.QaCs) == 0 {
		return
	}
	env := timing.DescribeEnvironment(sysinfo.Describe(r.run.Dir))
	env.QEsPerQaC = r.plan.QEs
	env.CacheMode = r.res.Cache
	if r.res.CacheFlush != nil {
		env.NotFlushed = r.res.CacheFlush.NotDone
	}
	if r.sess != nil {
		if foreign, err := r.sess.Foreign(); err == nil {
			for _, p := range foreign {
				name := fmt.Sprintf("%s (%s, pid %d)", p.Comm, p.DBMS, p.PID)
				if p.Helper {
					env.ForeignUtilityProcesses = append(env.ForeignUtilityProcesses, name)
				} else {
					env.ForeignQueryProcesses = append(env.ForeignQueryProcesses, name)
				}
			}
		}
	}
	env.DaemonsRunning = "the operating system's services were not stopped"
	env.Notes = r.sessNotes()
	r.exp.Env = env
	a := timing.Analyze(&r.exp)
	r.res.Measure = a.Env.ComputedMeasure
	r.res.Protocol = protocolResult(a)
	for i := range r.res.QaCs {
		if i >= len(a.QaCs) {
			break
		}
		fillQaC(&r.res.QaCs[i], a.QaCs[i], r.exp.QaCs[i])
	}
}

func (r *qacRun) sessNotes() []string {
	if r.sess == nil {
		return nil
	}
	return r.sess.Notes
}

// protocolResult stores the protocol's verdict.
func protocolResult(a *timing.Analysis) *results.Protocol {
	p := &results.Protocol{Version: a.Env.Protocol, Dirty: a.Dirty, QEsDroppedPct: a.QEsDroppedPct, QaCsDroppedPct: a.QaCsDroppedPct,
		Paragraph: timing.Paragraph(a), Deviations: timing.Deviations(a.Env)}
	add := func(dst *[]results.Violation, vs []timing.Violation) {
		for _, v := range vs {
			*dst = append(*dst, results.Violation{Check: v.Check, Scope: string(v.Scope), Where: v.Where(), Detail: v.Detail})
		}
	}
	add(&p.Violations, a.Experiment)
	add(&p.Violations, a.QaCViolations)
	add(&p.Violations, a.QEViolations)
	add(&p.PostChecks, a.Post.ExcessiveVariation)
	add(&p.PostChecks, a.Post.Strict)
	add(&p.PostChecks, a.Post.Relaxed)
	return p
}

func estimate(e timing.Estimate) results.Estimate {
	return results.Estimate{MedianMS: e.Median, LowMS: e.Low, HighMS: e.High, RSD: e.RSD, N: e.N}
}

// fillQaC copies one Q@C's outcome and its QEs' measures.
func fillQaC(dst *results.QaCResult, a timing.QaCResult, q timing.QaC) {
	dst.Retained, dst.DropReasons, dst.Kept = a.Retained, a.DropReasons, a.Kept
	dst.Measured, dst.Computed, dst.Fine = estimate(a.Measured), estimate(a.Computed), estimate(a.Fine)
	dst.AllMeasured, dst.AllComputed, dst.AllFine = estimate(a.AllMeasured), estimate(a.AllComputed), estimate(a.AllFine)
	for i, qr := range a.QEs {
		qe := q.QEs[i]
		qp := qe.Classes[timing.Query]
		up, dp := qe.Classes[timing.Utility], qe.Classes[timing.Daemon]
		dst.QEs = append(dst.QEs, results.QEResult{
			Index: qr.Index, MeasuredMS: qr.MeasuredMS, ComputedMS: qr.ComputedMS, FineMS: qr.FineMS, Rows: qe.Rows,
			QPUser: qp.UserTicks, QPSys: qp.SysTicks, QPBlkio: qp.BlkioTicks, QPCPUUS: qp.CPUUS, QPBlkioNS: qp.BlkioNS,
			UPTicks: up.UserTicks + up.SysTicks, DPTicks: dp.UserTicks + dp.SysTicks,
			IOWait: qe.Overall.IOWait, Steal: qe.Overall.Steal, Ephemeral: qe.Ephemeral,
			Dropped: qr.Dropped, Checks: qr.Checks, Error: qe.Err,
		})
	}
}
