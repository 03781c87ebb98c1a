package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/timing"
)

// QACPlan is a validated query-at-cardinality run (docs/ttp.md): nothing
// touched yet.
type QACPlan struct {
	// Wisconsin is a selection query 1-8 on TENKTUP1, or 0 with SQL.
	Wisconsin int
	// SQL names the variable table {table}; Table and Key are the user's
	// table and its column numbered 0..N-1.
	SQL, Table, Key string
	Cardinalities   []int64 // ascending
	QEs             int
	Cold            bool
	// Restart restarts the private server (--server): the cold cache of
	// the engine, and delay accounting for its processes.
	Restart     func(context.Context) error
	MaxRestarts int
	// CPUs, when set, pins dbgauge and the engine's processes there.
	CPUs []int
	Seed uint64
	Drop bool
}

type qacRun struct {
	e    dbms.Engine
	url  string
	plan QACPlan
	run  *results.Run
	res  *results.QACResults
	pr   *progress.Printer
	sess *timing.Session
	made []string // tables this run created
	exp  timing.Experiment
	// units are the Q@Cs (resume.go); done the Q@Cs a resumed run
	// completed before it stopped, by cardinality.
	units *units
	done  map[int64]doneQaC
	o     *opened // whose session reconnect replaces
	// failed is the first QE that failed: the protocol drops it and the
	// Q@C goes on, but the run is not complete (exit code 1).
	failed error
}

// RunQAC builds the variable tables, times the query at every cardinality
// with the protocol, analyses the executions and writes the run directory.
// It returns what was measured even when it fails.
func RunQAC(ctx context.Context, s Setup, plan QACPlan, pr *progress.Printer) (*results.QACResults, error) {
	embedded := func(dir string) string { return dbms.DefaultURL(filepath.Join(dir, "qac.db")) }
	o, err := open(ctx, s, "qac", plan.Seed, embedded, userTable(ctx, plan))
	if err != nil {
		return nil, err
	}
	defer o.close()
	label := plan.SQL
	if plan.Wisconsin != 0 {
		label = "wisconsin " + strconv.Itoa(plan.Wisconsin)
	}
	cache := "warm"
	if plan.Cold {
		cache = "cold"
	}
	r := &qacRun{e: o.e, url: o.url, plan: plan, run: o.run, pr: pr, res: &results.QACResults{
		Header: results.Header{Experiment: "qac", Engine: o.e.Name(), EngineVersion: o.man.Engine.Version}, Query: label,
		Cardinalities: plan.Cardinalities, QEs: plan.QEs, Cache: cache, Seed: plan.Seed,
	}}
	r.o = o
	r.units = newUnits(s, o.run, &r.res.Header, pr)
	r.done = doneQaCs(s.Resume, label, plan.QEs)
	pr.Line("dbgauge qac on %s %s: %s at cardinalities %v, %d QEs each, %s cache, run directory %s",
		o.man.Engine.Engine, o.man.Engine.Version, label, plan.Cardinalities, plan.QEs, cache, o.run.Dir)
	// A failed QE comes first: it is the cause when the run then ends
	// (a lost session's next statement finds the connection closed).
	measureErr := r.measure(ctx) // before r.failed is read: it sets it
	runErr := andErr(r.failed, measureErr)
	if r.sess != nil {
		r.sess.Close()
	}
	r.analyze()
	runErr = runOutcome(ctx, r.run, runErr, &r.res.Complete, &r.res.Error)
	runErr = andErr(runErr, r.write())
	if plan.Drop && r.e != nil {
		for _, t := range r.made {
			if err := r.e.DropTable(context.WithoutCancel(ctx), t); err != nil {
				r.warn(fmt.Sprintf("drop %s: %v", t, err))
			}
		}
	}
	return r.res, runErr
}

// userTable is the check, before the run directory is made, that the
// engine has the user's --table with its --key column: a name the engine
// does not know is bad input (exit 2, nothing written), not a run that
// fails at its first Q@C table. A session fault stays what it is.
func userTable(ctx context.Context, plan QACPlan) func(dbms.Engine) error {
	if plan.Table == "" {
		return noCheck
	}
	return func(e dbms.Engine) error {
		_, err := e.QueryRows(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE 1 = 0", plan.Key, plan.Table))
		if err == nil || dbms.Classify(err).SessionFault() {
			return err
		}
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("--table %s --key %s: %s cannot read them (%v): give a table of the database and its column numbered 0..N-1",
			plan.Table, plan.Key, e.Name(), err))
	}
}

// measure builds the tables, attaches the protocol's monitors and runs
// every Q@C.
func (r *qacRun) measure(ctx context.Context) error {
	tables, err := r.buildTables(ctx)
	if err != nil {
		return err
	}
	// Delay accounting (off by default since Linux 5.14) gives the block-I/O
	// delay of the computed time. The specification asks for the server
	// to start after it is on: a server dbgauge manages is restarted.
	if switched, err := timing.EnableDelayAccounting(); err != nil {
		r.warn("delay accounting stays off: " + err.Error())
	} else if switched {
		r.pr.Line("delay accounting switched on (kernel.task_delayacct=1)")
		if r.plan.Restart != nil {
			if err := restartServer(ctx, r.e, r.plan.Restart); err != nil {
				return err
			}
		}
	}
	if err := r.attach(ctx); err != nil {
		return err
	}
	r.res.QueryProcess = r.sess.QueryProcess().How
	r.res.DelayAccounting = r.sess.DelayAccounting()
	for _, t := range tables {
		unit := qacUnit(t.card)
		if d, ok := r.done[t.card]; ok && r.units.completed(unit) {
			r.exp.QaCs = append(r.exp.QaCs, d.qac)
			r.res.QaCs = append(r.res.QaCs, d.res)
			r.pr.Line("cardinality %-9d complete before the run was resumed: kept", t.card)
			continue
		}
		err := r.units.do(ctx, unit, func(ctx context.Context, try int) error {
			if try > 0 {
				// After a fault: a new session, and the query process
				// found again (a restarted server has new ones).
				if err := r.reconnect(ctx); err != nil {
					return err
				}
			}
			return r.qac(ctx, t)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// attach starts the protocol's monitors on the engine session.
func (r *qacRun) attach(ctx context.Context) error {
	var err error
	if r.sess, err = timing.Attach(ctx, r.e, r.url); err != nil {
		return err
	}
	if len(r.plan.CPUs) > 0 {
		if err := r.sess.SetCPUs(r.plan.CPUs); err != nil {
			return err
		}
		r.pr.Line("dbgauge and the engine pinned to CPUs %v", r.plan.CPUs)
	}
	return nil
}

// reconnect replaces the engine session and its monitors, after a fault.
func (r *qacRun) reconnect(ctx context.Context) error {
	if r.sess != nil {
		r.sess.Close()
		r.sess = nil
	}
	err := r.o.reopen(ctx)
	r.e = r.o.e
	if err != nil {
		return err
	}
	return r.attach(ctx)
}

// qac runs one query at one cardinality: QEs in the protocol's order,
// restarted from the first when the plan changes (seed 002 §3.2.3), at
// most MaxRestarts times; after that the change is accepted and shows as a
// Q@C with more than one plan.
func (r *qacRun) qac(ctx context.Context, t qacTable) error {
	for restarts := 0; ; restarts++ {
		q := timing.QaC{Query: r.res.Query, Cardinality: t.card, Restarts: restarts}
		var first string
		changed := false
		for i := 1; i <= r.plan.QEs; i++ {
			plan, err := r.sess.Explain(ctx, t.query)
			if err != nil {
				return fmt.Errorf("cardinality %d: plan: %w", t.card, err)
			}
			plan = planShape(plan, t.name)
			if i == 1 {
				first = plan
			} else if plan != first {
				changed = true
				if restarts < r.plan.MaxRestarts {
					r.warn(fmt.Sprintf("cardinality %d: the plan changed at QE %d: the Q@C starts again", t.card, i))
					break
				}
			}
			if r.plan.Cold {
				if err := r.cold(ctx); err != nil {
					return err
				}
			}
			qe, err := r.sess.Execute(ctx, t.query)
			if err != nil {
				return fmt.Errorf("cardinality %d, QE %d: %w", t.card, i, err)
			}
			qe.Index, qe.Plan = i, plan
			if ctx.Err() != nil {
				// Ctrl-C or SIGTERM: this QE may have been cut short. It
				// is journalled as interrupted and is no QE of the Q@C,
				// which is not kept: its QEs are not all there.
				qe.Err = interrupted(ctx).Error()
				r.run.Journal().Append(results.QACExecution{Cardinality: t.card, QE: qe})
				return fmt.Errorf("cardinality %d, QE %d: %w", t.card, i, interrupted(ctx))
			}
			if t.expected >= 0 && qe.Err == "" && qe.Rows != t.expected {
				return fmt.Errorf("cardinality %d, QE %d: %d rows, expected %d: the engine answered a different query", t.card, i, qe.Rows, t.expected)
			}
			r.run.Journal().Append(results.QACExecution{Cardinality: t.card, QE: qe})
			if qe.Lost {
				// The server went away (killed, restarted): the QEs after
				// it would run on another server process, so the Q@C is
				// not kept (its QEs are in the journal) and the unit
				// fails with the fault, which --pause-on-error waits out.
				return dbms.Wrap(dbms.ConnectionLost, fmt.Errorf("cardinality %d, QE %d: connection lost: %s", t.card, i, qe.Err))
			}
			if qe.Err != "" {
				// Dropped by the protocol (CheckFailed): its time is no
				// measurement, so none is shown.
				if r.failed == nil {
					r.failed = fmt.Errorf("cardinality %d, QE %d failed: %s", t.card, i, qe.Err)
				}
				r.pr.Line("cardinality %-9d QE %2d/%d  failed: %s", t.card, i, r.plan.QEs, qe.Err)
			} else {
				r.pr.Line("cardinality %-9d QE %2d/%d  measured %9.2f ms  query process %d+%d ticks", t.card, i, r.plan.QEs,
					float64(qe.Measured.Microseconds())/1000, qe.Classes[timing.Query].UserTicks, qe.Classes[timing.Query].SysTicks)
			}
			q.QEs = append(q.QEs, qe)
		}
		if !changed || restarts >= r.plan.MaxRestarts {
			qr := results.QaCResult{Cardinality: t.card, Table: t.name, SQL: t.query, Plan: first, PlanRestarts: restarts, ExpectedRows: t.expected}
			r.exp.QaCs = append(r.exp.QaCs, q)
			r.res.QaCs = append(r.res.QaCs, qr)
			// Its QEs are the journal's last ones of this cardinality:
			// a resumed run takes the Q@C back from them and this entry.
			r.run.Journal().Append(qr)
			return nil
		}
	}
}

// cold empties the caches before an execution and records what could not
// be emptied; a restarted server means a new query process.
func (r *qacRun) cold(ctx context.Context) error {
	done, notDone, err := coldCache(ctx, r.e, r.plan.Restart)
	if err != nil {
		return err
	}
	r.res.CacheFlush = mergeFlush(r.res.CacheFlush, done, notDone, r.warn)
	if r.plan.Restart != nil {
		return r.sess.Reattach(ctx)
	}
	return nil
}

func (r *qacRun) warn(msg string) {
	r.res.Warnings = append(r.res.Warnings, msg)
	r.run.Journal().Append(results.JournalWarning(msg))
	r.pr.Line("warning: %s", msg)
}

// literal matches the numbers in a plan's text.
var literal = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?\b`)

// planShape is the plan with the variable table's name and the numbers
// (the query's constants, which scale with the cardinality) blanked: two
// cardinalities have the same plan when they have the same shape, which
// the monotonicity checks need to compare them.
func planShape(plan, table string) string {
	for _, name := range []string{table, strings.ToUpper(table)} {
		plan = strings.ReplaceAll(plan, name, "{table}")
	}
	return literal.ReplaceAllString(plan, "#")
}
