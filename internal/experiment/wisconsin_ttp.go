package experiment

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/timing"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// The Wisconsin suite under the timing protocol (--protocol ttp): every
// timed statement is a QE, the repetitions of one query at one size,
// organisation and destination are its Q@C (the size is the cardinality),
// and the protocol's computed time is reported beside the elapsed time.
//
// Unlike qac's Q@Cs, the repetitions are not identical executions: seed
// 000's rule alternates TENKTUP1 and TENKTUP2 and draws new constants, so
// a plan may differ between repetitions. The plans are recorded and a Q@C
// with more than one is reported by the experiment-wide check, not
// restarted.
type wisconsinTTP struct {
	sess *timing.Session
	exp  timing.Experiment
	cur  *timing.QaC
	unit string // cur's query result
	// result[i] is the index in the query results of exp.QaCs[i].
	result []int
}

// ttpStart switches delay accounting on (restarting a managed server so
// its processes count) and attaches the protocol's monitors.
func (r *wisconsinRun) ttpStart(ctx context.Context) error {
	if switched, err := timing.EnableDelayAccounting(); err != nil {
		r.warn("delay accounting stays off: " + err.Error())
	} else if switched && r.plan.Restart != nil {
		if err := r.plan.Restart(ctx); err != nil {
			return fmt.Errorf("restart the server for delay accounting: %w", err)
		}
		if err := r.reconnect(ctx); err != nil {
			return err
		}
	}
	sess, err := timing.Attach(ctx, r.e, r.plan.URL)
	if err != nil {
		return fmt.Errorf("timing protocol: %w", err)
	}
	r.ttp = &wisconsinTTP{sess: sess}
	r.pr.Line("timing protocol: query process %d (%s)", sess.QueryProcess().PID, sess.QueryProcess().How)
	return nil
}

// ttpBegin opens the Q@C of one query result.
func (r *wisconsinRun) ttpBegin(q w.Query, n int64, dest string) {
	if r.ttp == nil {
		return
	}
	r.ttp.cur = &timing.QaC{Query: fmt.Sprintf("Q%d %s %s", q.Num, q.Org, dest), Cardinality: n}
	r.ttp.unit = wisconsinUnit(n, q, dest)
}

// ttpEnd closes it before its query result is recorded; a query that
// never ran leaves no Q@C.
func (r *wisconsinRun) ttpEnd() {
	if r.ttp == nil || r.ttp.cur == nil {
		return
	}
	if len(r.ttp.cur.QEs) > 0 {
		r.ttp.exp.QaCs = append(r.ttp.exp.QaCs, *r.ttp.cur)
		r.ttp.result = append(r.ttp.result, len(r.res.Queries))
		// Whole, for a resumed run to analyse with its own.
		r.run.Journal().Append(results.WisconsinQaC{Unit: r.ttp.unit, QaC: *r.ttp.cur})
	}
	r.ttp.cur = nil
}

// ttpRestore takes the Q@C of a completed query result back from a
// resumed run's journal, for the last query result recorded (the one
// taken back): the protocol analyses it with the Q@Cs measured now.
func (r *wisconsinRun) ttpRestore(unit string) {
	if r.ttp == nil || r.done == nil {
		return
	}
	if qac, ok := r.done.qacs[unit]; ok {
		r.ttp.exp.QaCs = append(r.ttp.exp.QaCs, qac)
		r.ttp.result = append(r.ttp.result, len(r.res.Queries)-1)
	}
}

// ttpMeasure runs one timed statement as a QE: its plan first (untimed),
// then the protocol's snapshots around it. It returns the statement's rows
// and error, and the measured milliseconds. An execution the run's
// cancellation stopped (ctx's parent, not its time limit) is no QE of the
// Q@C: its error says it was interrupted.
func (r *wisconsinRun) ttpMeasure(ctx context.Context, explain string, run func(context.Context) (int64, error)) (int64, float64, error) {
	t := r.ttp
	plan := ""
	if explain != "" {
		p, err := t.sess.Explain(ctx, explain)
		if err != nil {
			r.warn("plan of " + explain + ": " + err.Error())
		}
		plan = p
	}
	var runErr error
	qe, err := t.sess.Measure(ctx, func(ctx context.Context) (int64, error) {
		n, err := run(ctx)
		runErr = err
		return n, err
	})
	if err != nil {
		return 0, 0, err
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return qe.Rows, float64(qe.Measured.Nanoseconds()) / 1e6, interrupted(ctx)
	}
	qe.Plan = plan
	if t.cur != nil {
		qe.Index = len(t.cur.QEs) + 1
		t.cur.QEs = append(t.cur.QEs, qe)
	}
	return qe.Rows, float64(qe.Measured.Nanoseconds()) / 1e6, runErr
}

// ttpFinish analyses every Q@C and adds the computed times to the query
// results.
func (r *wisconsinRun) ttpFinish() {
	t := r.ttp
	if t == nil {
		return
	}
	t.sess.Close()
	if len(t.exp.QaCs) == 0 {
		return
	}
	env := timing.DescribeEnvironment(sysinfo.Describe(r.run.Dir))
	env.QEsPerQaC, env.CacheMode = r.plan.Reps, r.res.Cache
	if r.res.CacheFlush != nil {
		env.NotFlushed = r.res.CacheFlush.NotDone
	}
	env.DaemonsRunning = "the operating system's services were not stopped"
	env.Notes = t.sess.Notes
	t.exp.Env = env
	a := timing.Analyze(&t.exp)
	r.res.Protocol = protocolResult(a)
	for i, qa := range a.QaCs {
		q := &r.res.Queries[t.result[i]]
		c, f := estimate(qa.Computed), estimate(qa.Fine)
		q.ComputedMS, q.FineComputedMS = &c, &f
		q.ProtocolRetained = &qa.Retained
		q.ProtocolDrops = qa.DropReasons
	}
}

// ttpReattach finds the query process again after a new session (a
// PostgreSQL backend is a new process) or a server restart.
func (r *wisconsinRun) ttpReattach(ctx context.Context) error {
	if r.ttp == nil {
		return nil
	}
	return r.ttp.sess.Reattach(ctx)
}
