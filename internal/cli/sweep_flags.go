package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// sweepFlags are the flags of a DSBENCH sweep's load that dsbench and clustersize
// share: the workload, its clients, their cycles, and the check of
// acknowledged writes. Each command gives its own defaults of the counts.
// --workload and --mode are one choice under two names (--mode is the
// older): the registered workloads.
type sweepFlags struct {
	fs                           *pflag.FlagSet
	mode, workload, form         *flagtype.Value[string]
	isolation                    *flagtype.Value[dbms.Isolation]
	seed                         *flagtype.Value[uint64]
	cycles, threads, connections *flagtype.Value[int]
	duration                     *flagtype.Value[time.Duration]
	retry, prepare, checkAcks    bool
	spread                       *spreadFlag
	session                      []string
	// own are the workloads' own flags (workload.Flagger), by workload;
	// owner names the workload of each of their flags; options is the
	// chosen workload's options as a run stored them (--workload-options,
	// hidden: a resumed run takes them instead of reading files again).
	own     map[string]workload.Flagger
	owner   map[string]string
	options string
}

// newSweepFlags are the shared flags with the command's defaults; threads
// carries the command's own lower bound.
func newSweepFlags(cycles int, duration time.Duration, threads *flagtype.Value[int]) *sweepFlags {
	if workload.Default() == "" {
		panic("cli: no default workload registered: the main package imports internal/workload/all")
	}
	return &sweepFlags{
		mode:        flagtype.Choice(workload.Default(), workload.Names()...),
		workload:    flagtype.Choice(workload.Default(), workload.Names()...),
		form:        flagtype.OptionalChoice("", "procedure", "statements"),
		isolation:   flagtype.Func("repeatable-read", dbms.ParseIsolation),
		seed:        flagtype.Seed("1"),
		cycles:      flagtype.Int(cycles).Check(flagtype.AtLeast(1, "cycle")),
		duration:    flagtype.Duration(duration),
		threads:     threads,
		connections: flagtype.Int(1).Check(flagtype.AtLeast(1, "connection")),
		spread:      newSpreadFlag(),
		own:         workloadFlaggers(),
		owner:       map[string]string{},
	}
}

// workloadFlaggers are the registered workloads with flags of their own,
// by name.
func workloadFlaggers() map[string]workload.Flagger {
	out := map[string]workload.Flagger{}
	for _, m := range workload.Registered() {
		if f, ok := m.New().(workload.Flagger); ok {
			out[m.Name] = f
		}
	}
	return out
}

// bindWorkloads binds every workload's own flags, in the order of the
// registry, noting whose each flag is, and the hidden --workload-options.
func (f *sweepFlags) bindWorkloads(fl *pflag.FlagSet) {
	for _, name := range workload.Names() {
		wf, ok := f.own[name]
		if !ok {
			continue
		}
		before := map[string]bool{}
		fl.VisitAll(func(fg *pflag.Flag) { before[fg.Name] = true })
		wf.Flags(fl)
		var added []string
		fl.VisitAll(func(fg *pflag.Flag) {
			if !before[fg.Name] {
				f.owner[fg.Name] = name
				added = append(added, fg.Name)
			}
		})
		inGroup(fl, "The "+name+" workload (--workload "+name+")", added...)
	}
	fl.StringVar(&f.options, workloadOptionsFlag, "", "the workload's options as the run stored them (JSON): what dbgauge resume gives the workload instead of reading its files again")
	fl.MarkHidden(workloadOptionsFlag)
}

// workloadOptionsFlag carries a workload's options (workload.Flagger's)
// in the run's manifest.
const workloadOptionsFlag = "workload-options"

// workloadOptions are the options of the chosen workload: none for one
// without flags of its own; else the stored ones (a resumed run) or what
// its flags say, read now. A flag of another workload is refused.
func (f *sweepFlags) workloadOptions(name, flag string) (json.RawMessage, error) {
	var given []string
	f.fs.Visit(func(fg *pflag.Flag) {
		if owner, ok := f.owner[fg.Name]; ok && owner != name {
			given = append(given, fmt.Sprintf("--%s belongs to --workload %s: give --workload %s, or leave --%s out", fg.Name, owner, owner, fg.Name))
		}
	})
	if len(given) > 0 {
		return nil, usagef("%s (the run's workload is --%s %s)", given[0], flag, name)
	}
	wf, ok := f.own[name]
	if !ok {
		if f.options != "" {
			return nil, usagef("--%s: the %s workload takes no options", workloadOptionsFlag, name)
		}
		return nil, nil
	}
	if f.options != "" {
		opts := json.RawMessage(f.options)
		if _, err := workload.NewConfigured(name, opts); err != nil {
			return nil, usagef("--%s: %v", workloadOptionsFlag, err)
		}
		return opts, nil
	}
	opts, err := wf.Options()
	if err != nil {
		return nil, usagef("%v", err)
	}
	// Through the flag, so that the manifest stores the options run.
	f.options = string(opts)
	if err := f.fs.Set(workloadOptionsFlag, f.options); err != nil {
		return nil, err
	}
	return opts, nil
}

// bind binds the shared flags; sizes binds the command's own flags of
// the database's size, after the transaction's (forms and the command
// line show flags in this order); threadsHelp says what --threads counts
// for the command.
func (f *sweepFlags) bind(fl *pflag.FlagSet, sizes func(), cyclesHelp, threadsHelp string) {
	f.fs = fl
	fl.Var(f.workload, "workload", "the transactions to run: "+workloadsHelp())
	fl.Var(f.mode, "mode", "the same choice as --workload, under its older name: "+strings.Join(workload.Names(), " or "))
	fl.Var(f.form, "form", "procedure (one server-side call per transaction, for a workload that has procedures; the default on PostgreSQL and MariaDB where the workload makes it its default; on Firebird 3, commits were seen applied in part under update conflicts) or statements")
	sizes()
	fl.Var(f.cycles, "cycles", cyclesHelp)
	fl.Var(f.duration, "duration", "demanded duration D of a cycle")
	fl.Var(f.threads, "threads", threadsHelp)
	fl.Var(f.connections, "connections", "connections per thread, used round robin")
	fl.BoolVar(&f.retry, "retry", false, "repeat a failed transaction with the same inputs until it commits")
	fl.BoolVar(&f.prepare, "prepare", false, "prepare the statements once per session")
	fl.BoolVar(&f.checkAcks, "check-acks", false, "tag every writing transaction (statements form, a workload that tags its writes: "+strings.Join(workload.Tagging(), ", ")+") and check after each cycle that every one acknowledged to a client is in the database; the lost ones are listed with their client and node, and fail the run")
	f.spread.bind(fl)
	fl.StringArrayVar(&f.session, "session", nil, "SQL every client session runs first, repeatable (e.g. 'SET synchronous_commit = remote_apply', 'SET SESSION wsrep_sync_wait = 1'): run once per setting and compare the runs with dbgauge compare for the cost of each, with verdicts")
	fl.Var(f.isolation, "isolation", "repeatable-read, read-committed or serializable")
	fl.Var(f.seed, "seed", "seed of the transaction inputs")
	f.bindWorkloads(fl)
}

// plan is the load's part of a sweep's plan, --spread checked against
// the URL the clients connect to; faulted: a node fault will check the
// acknowledged writes too.
func (f *sweepFlags) plan(db string, faulted bool) (experiment.DSBenchPlan, error) {
	name, flag, err := f.chosen()
	if err != nil {
		return experiment.DSBenchPlan{}, err
	}
	if err := experiment.CheckAcksPlan(name, flag, f.form.V, f.checkAcks || faulted); err != nil {
		return experiment.DSBenchPlan{}, usagef("%v", err)
	}
	if engine, lacks := dbms.LacksProcedures(db); f.form.V == "procedure" && lacks {
		// Refused before a session opens: an embedded engine's open
		// would create its database file.
		return experiment.DSBenchPlan{}, usagef("--form procedure: %s has no server-side procedures; use --form statements", engine)
	}
	spread, err := f.spread.plan(db)
	if err != nil {
		return experiment.DSBenchPlan{}, err
	}
	opts, err := f.workloadOptions(name, flag)
	if err != nil {
		return experiment.DSBenchPlan{}, err
	}
	return experiment.DSBenchPlan{
		Mode: name, Form: f.form.V, WorkloadOptions: opts, Cycles: f.cycles.V, Duration: f.duration.V,
		Threads: f.threads.V, Conns: f.connections.V, Retry: f.retry, Prepare: f.prepare, CheckAcks: f.checkAcks,
		Isolation: f.isolation.V, Seed: f.seed.V, Spread: spread, Session: f.session,
	}, nil
}

// chosen is the workload --workload or --mode names, and the flag that
// named it (for the messages); both given must agree. Both then hold it,
// so that the manifest records the workload run under either name.
func (f *sweepFlags) chosen() (name, flag string, err error) {
	byWorkload, byMode := f.fs.Changed("workload"), f.fs.Changed("mode")
	name, flag = f.workload.V, "workload"
	switch {
	case byWorkload && byMode && f.workload.V != f.mode.V:
		return "", "", usagef("--workload %s and --mode %s: they are one choice under two names: give one", f.workload.V, f.mode.V)
	case byMode && !byWorkload:
		name, flag = f.mode.V, "mode"
	}
	if err := errors.Join(f.workload.Set(name), f.mode.Set(name)); err != nil {
		return "", "", err
	}
	return name, flag, nil
}

// checkScales refuses a scale the chosen workload cannot build.
func (f *sweepFlags) checkScales(flag string, xs []int64) error {
	w, err := workload.New(f.workload.V)
	if err != nil {
		return usagef("--workload: %v", err)
	}
	for _, x := range xs {
		if err := w.Scale().Check(x); err != nil {
			return usagef("--%s %d: %v, the bound of the %s workload: give a scale it builds", flag, x, err, f.workload.V)
		}
	}
	return nil
}

// checkLoad refuses a load the chosen workload cannot be run under
// (workload.LoadPlanner), with its own line.
func checkLoad(name string, opts json.RawMessage, l workload.Load) error {
	w, err := workload.NewConfigured(name, opts)
	if err != nil {
		return nil // refused with its own line elsewhere
	}
	if lp, ok := w.(workload.LoadPlanner); ok {
		if err := lp.CheckLoad(l); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// typeBytes is the memory the chosen workload's per-type figures add to
// each thread and each cycle (driver.TypeBytes): a histogram per type and
// per statement (a script's commands), counted on its scripts as given.
func typeBytes(name string, opts json.RawMessage) int64 {
	w, err := workload.NewConfigured(name, opts)
	if err != nil {
		return 0 // refused with its own line elsewhere
	}
	stmts := 0
	if st, ok := w.(workload.Statementer); ok {
		for _, s := range st.Statements("") {
			stmts += len(s)
		}
	}
	return driver.TypeBytes(len(w.Types()), stmts)
}

// workloadsHelp lists the registered workloads with their descriptions.
func workloadsHelp() string {
	var parts []string
	for _, m := range workload.Registered() {
		parts = append(parts, m.Name+" ("+m.Description+")")
	}
	return strings.Join(parts, ", ")
}

// scaleHelp says what a scale is, per group of workloads that share a
// meaning.
func scaleHelp() string {
	var parts []string
	byUnit := map[string][]string{}
	var units []string
	for _, m := range workload.Registered() {
		u := m.New().Scale().Unit
		if _, seen := byUnit[u]; !seen {
			units = append(units, u)
		}
		byUnit[u] = append(byUnit[u], m.Name)
	}
	for _, u := range units {
		parts = append(parts, strings.Join(byUnit[u], ", ")+": 1 scale = "+u)
	}
	return strings.Join(parts, "; ")
}
