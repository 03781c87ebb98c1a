package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
)

// sweepFlags are the flags of a DSBENCH sweep's load that dsbench and clustersize
// share: the transaction, its clients, their cycles, and the check of
// acknowledged writes. Each command gives its own defaults of the counts.
type sweepFlags struct {
	mode, form                   *flagtype.Value[string]
	isolation                    *flagtype.Value[dbms.Isolation]
	seed                         *flagtype.Value[uint64]
	cycles, threads, connections *flagtype.Value[int]
	duration                     *flagtype.Value[time.Duration]
	retry, prepare, checkAcks    bool
	spread                       *spreadFlag
	session                      []string
}

// newSweepFlags are the shared flags with the command's defaults; threads
// carries the command's own lower bound.
func newSweepFlags(cycles int, duration time.Duration, threads *flagtype.Value[int]) *sweepFlags {
	return &sweepFlags{
		mode:        flagtype.Choice("tpcb", "tpcb", "select"),
		form:        flagtype.OptionalChoice("", "procedure", "statements"),
		isolation:   flagtype.Func("repeatable-read", dbms.ParseIsolation),
		seed:        flagtype.Seed("1"),
		cycles:      flagtype.Int(cycles).Check(flagtype.AtLeast(1, "cycle")),
		duration:    flagtype.Duration(duration),
		threads:     threads,
		connections: flagtype.Int(1).Check(flagtype.AtLeast(1, "connection")),
		spread:      newSpreadFlag(),
	}
}

// bind binds the shared flags; sizes binds the command's own flags of
// the database's size, after the transaction's (forms and the command
// line show flags in this order); threadsHelp says what --threads counts
// for the command.
func (f *sweepFlags) bind(fl *pflag.FlagSet, sizes func(), cyclesHelp, threadsHelp string) {
	fl.Var(f.mode, "mode", "tpcb (the TPC-B transaction) or select (read one account)")
	fl.Var(f.form, "form", "procedure (one server-side call per transaction; the default on PostgreSQL and MariaDB; on Firebird 3, commits were seen applied in part under update conflicts) or statements")
	sizes()
	fl.Var(f.cycles, "cycles", cyclesHelp)
	fl.Var(f.duration, "duration", "demanded duration D of a cycle")
	fl.Var(f.threads, "threads", threadsHelp)
	fl.Var(f.connections, "connections", "connections per thread, used round robin")
	fl.BoolVar(&f.retry, "retry", false, "repeat a failed transaction with the same inputs until it commits")
	fl.BoolVar(&f.prepare, "prepare", false, "prepare the statements once per session")
	fl.BoolVar(&f.checkAcks, "check-acks", false, "tag every TPC-B transaction (statements form) and check after each cycle that every one acknowledged to a client is in the history; the lost ones are listed with their client and node, and fail the run")
	f.spread.bind(fl)
	fl.StringArrayVar(&f.session, "session", nil, "SQL every client session runs first, repeatable (e.g. 'SET synchronous_commit = remote_apply', 'SET SESSION wsrep_sync_wait = 1'): run once per setting and compare the runs with dbgauge compare for the cost of each, with verdicts")
	fl.Var(f.isolation, "isolation", "repeatable-read, read-committed or serializable")
	fl.Var(f.seed, "seed", "seed of the transaction inputs")
}

// plan is the load's part of a sweep's plan, --spread checked against
// the URL the clients connect to; faulted: a node fault will check the
// acknowledged writes too.
func (f *sweepFlags) plan(db string, faulted bool) (experiment.DSBenchPlan, error) {
	if err := experiment.CheckAcksPlan(f.mode.V, f.form.V, f.checkAcks || faulted); err != nil {
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
	return experiment.DSBenchPlan{
		Mode: f.mode.V, Form: f.form.V, Cycles: f.cycles.V, Duration: f.duration.V,
		Threads: f.threads.V, Conns: f.connections.V, Retry: f.retry, Prepare: f.prepare, CheckAcks: f.checkAcks,
		Isolation: f.isolation.V, Seed: f.seed.V, Spread: spread, Session: f.session,
	}, nil
}
