package experiment

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/pgbench"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/workload/script"
)

// ErrPgbenchAborted ends a pgbench run some of whose clients stopped on an
// error: pgbench prints its report and exits 2, and so does dbgauge.
var ErrPgbenchAborted = errors.New("Run was aborted; the above results are incomplete.")

// PgbenchPlan is a checked pgbench command line and where its text goes:
// Stdout gets what pgbench writes to standard output (the version line,
// the report), Stderr the rest (vacuum, -P lines, errors).
type PgbenchPlan struct {
	Options        *pgbench.Options
	Args           []string
	Stdout, Stderr io.Writer
	// AllowShell lets scripts run \shell and \setshell.
	AllowShell bool
}

// pgbRun is one run of dbgauge pgbench.
type pgbRun struct {
	o              *pgbench.Options
	stdout, stderr io.Writer
	clients        []*pgbClient
	// begun is when the sessions started opening, started when the
	// clients started their transactions (set before any runs).
	begun, started time.Time
	// cpu is the process's CPU seconds while the clients ran (ProcessCPU
	// at the start of benchmarking, then the difference at its end).
	cpu float64
	// startedP is started for the -P goroutine.
	startedP atomic.Pointer[time.Time]
}

// startedAt is when benchmarking started; zero before.
func (run *pgbRun) startedAt() time.Time {
	if p := run.startedP.Load(); p != nil {
		return *p
	}
	return time.Time{}
}

// RunPgbench runs a pgbench command line (o.Mode Run) on s.DB: the
// clients as driver threads, one session each, running pgbench's
// scripts with the script runtime; pgbench's text on the plan's writers;
// the run directory with results.json, the percentiles and the page.
func RunPgbench(ctx context.Context, s Setup, plan PgbenchPlan) (*results.PgbenchResults, error) {
	o := plan.Options
	seed, err := pgbenchSeed(o)
	if err != nil {
		return nil, err
	}
	if o.SeedGiven {
		fmt.Fprintf(plan.Stderr, "pgbench: setting random seed to %d\n", seed)
	}
	op, err := open(ctx, s, "pgbench", seed, func(string) string { return s.DB }, noCheck)
	if err != nil {
		return nil, err
	}
	defer op.close()
	fmt.Fprintf(plan.Stdout, "pgbench (15 (dbgauge %s), server %s %s)\n", s.Version, op.man.Engine.Engine, op.man.Engine.Version)
	scale, err := pgbenchScale(ctx, op.e, o, plan.Stderr)
	if err != nil {
		return nil, err
	}
	pgbench.BeforeRun(ctx, op.e, o, plan.Stderr)
	prog, err := pgbenchProgram(o, scale, seed, plan)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	run := &pgbRun{o: o, stdout: plan.Stdout, stderr: plan.Stderr}
	for _, c := range prog.Clients(o.Clients) {
		run.clients = append(run.clients, newPgbClient(run, c))
	}
	res := &results.PgbenchResults{
		Header: results.Header{Experiment: "pgbench", Engine: op.man.Engine.Engine, EngineVersion: op.man.Engine.Version},
		Args:   plan.Args, Scale: scale, Clients: o.Clients, Threads: o.Threads, Protocol: string(o.Protocol),
		Transactions: o.Transactions, DurationS: o.Duration.Seconds(), MaxTries: o.MaxTries, RateTPS: o.Rate,
	}
	dres, runErr := run.drive(ctx, s.DB, seed)
	report := run.report(scale, dres, res)
	fmt.Fprint(plan.Stdout, report)
	res.Report = report
	if runErr == nil && res.Aborted > 0 {
		runErr = ErrPgbenchAborted
	}
	runErr = runOutcome(ctx, op.run, runErr, &res.Complete, &res.Error)
	werr := writeOutputs(op.run, res)
	now := time.Now().UTC()
	op.man.Finished = &now
	return res, andErr(runErr, errors.Join(werr, op.run.WriteJSON(results.ManifestFile, op.man)))
}

// drive runs the clients through the driver: -c threads of one session,
// -t as its transaction count or -T as its duration, -R as its Poisson
// rate, -C as its reconnect; -P lines from a ticker of their own.
func (run *pgbRun) drive(ctx context.Context, url string, seed uint64) (*driver.Result, error) {
	o := run.o
	types, stmts := pgbenchTypes(o)
	cfg := driver.Config{
		Threads: o.Clients, Cycles: 1, Duration: o.Duration, Transactions: int64(o.Transactions),
		Rate: o.Rate, Poisson: o.Rate > 0, Reconnect: o.Connect, Seed: seed,
		Types: types, Statements: stmts,
		Open: func(ctx context.Context, s *driver.Session) (dbms.Engine, error) {
			t0 := time.Now()
			e, err := dbms.Open(ctx, url)
			if o.Connect && !run.started.IsZero() {
				run.clients[s.Thread].connTotal += time.Since(t0)
			}
			return e, err
		},
		Setup: func(ctx context.Context, s *driver.Session) error {
			return run.clients[s.Thread].c.Setup(ctx, s.Engine)
		},
		NewOp: func(_, thread int) driver.Op { return run.clients[thread].op },
		CycleStart: func(context.Context, int) (time.Time, error) {
			run.started = time.Now()
			run.startedP.Store(&run.started)
			run.cpu = sysinfo.ProcessCPU()
			return run.started, nil
		},
	}
	run.begun = time.Now()
	stop := run.startProgress()
	res, err := driver.Run(ctx, cfg)
	if !run.started.IsZero() {
		run.cpu = sysinfo.ProcessCPU() - run.cpu
	}
	stop()
	return res, err
}

// report computes pgbench's figures from what the clients accumulated,
// fills res with them and with the driver's percentiles, and returns
// pgbench's report text.
func (run *pgbRun) report(scale int, dres *driver.Result, res *results.PgbenchResults) string {
	o := run.o
	f := pgbench.NewFigures(o)
	f.Scale = scale
	t := &pgbench.Totals{Scripts: make([]pgbench.ScriptTotals, len(o.Scripts))}
	for i := range t.Scripts {
		t.Scripts[i].Commands = make([]pgbench.CommandTotals, len(o.Scripts[i].Commands))
	}
	for _, c := range run.clients {
		addCounts(&t.Counts, c.live.Counts)
		t.Latency.Merge(c.live.Latency)
		t.Lag.Merge(c.live.Lag)
		t.LatencyLate += c.late
		t.ConnTotal += c.connTotal
		for i, s := range c.scripts {
			st := &t.Scripts[i]
			addCounts(&st.Counts, s.Counts)
			st.Latency.Merge(s.Latency)
			for j, cmd := range s.Commands {
				st.Commands[j].Latency.Merge(cmd.Latency)
				st.Commands[j].Failures += cmd.Failures
				st.Commands[j].Retries += cmd.Retries
			}
		}
		if c.aborted {
			res.Aborted++
		}
	}
	var c *driver.CycleResult
	switch {
	case dres == nil:
	case len(dres.Cycles) > 0:
		c = &dres.Cycles[0]
	default:
		c = dres.Interrupted
	}
	if c != nil {
		t.Duration = c.Stopped.Sub(c.Start)
		res.Percentiles = c.ResidencePercentiles()
		res.Types = c.TypeFigures()
	}
	if !run.started.IsZero() {
		t.ConnInitial = run.started.Sub(run.begun)
	}
	f.Compute(t)
	var b bytes.Buffer
	pgbench.Report(&b, f)
	res.Processed, res.Failed, res.Skipped = t.Processed, t.Failures(), t.Skipped
	res.Retried, res.Retries = t.Retried, t.Retries
	res.ElapsedS, res.TPS = t.Duration.Seconds(), finiteOr0(f.TPS)
	if !run.started.IsZero() {
		res.ClientCPUS = run.cpu
		if t.Processed > 0 {
			res.ClientCPUPerTxUS = 1e6 * run.cpu / float64(t.Processed)
		}
	}
	res.LatencyAverageMS, res.LatencyStddevMS = finiteOr0(f.LatencyAverage), finiteOr0(f.LatencyStddev)
	return b.String()
}

// finiteOr0 keeps results.json valid: a figure with nothing to divide by
// is 0 there (pgbench's text says NaN).
func finiteOr0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// pgbenchSeed is the run's random seed as pgbench 15 takes it: the number
// given, "rand" a strong random one, and "time" (the default) the clock
// in microseconds.
func pgbenchSeed(o *pgbench.Options) (uint64, error) {
	switch {
	case o.SeedGiven && o.SeedSource == "rand":
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("random seed: %w", err)
		}
		return binary.LittleEndian.Uint64(b[:]), nil
	case o.SeedGiven && o.SeedSource != "time":
		return o.Seed, nil
	}
	return uint64(time.Now().UnixMicro()), nil
}

// pgbenchScale is :scale: for a run of a built-in script the number of
// rows of pgbench_branches, as pgbench reads it (and says so when -s gave
// another); otherwise -s.
func pgbenchScale(ctx context.Context, e dbms.Engine, o *pgbench.Options, stderr io.Writer) (int, error) {
	builtin := false
	for _, s := range o.Specs {
		builtin = builtin || s.Builtin
	}
	if !builtin {
		return o.Scale, nil
	}
	rows, err := e.QueryRows(ctx, "SELECT count(*) FROM "+pgbench.Branches)
	if err != nil {
		return 0, fmt.Errorf("could not count number of branches: %w; Perhaps you need to do initialization (\"dbgauge pgbench -i\") in this database", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(rows[0][0]))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid count(*) from %s: %q (initialize the database with dbgauge pgbench -i)", pgbench.Branches, rows[0][0])
	}
	if o.ScaleGiven {
		fmt.Fprintf(stderr, "pgbench: warning: scale option ignored, using count from %s table (%d)\n", pgbench.Branches, n)
	}
	return n, nil
}

// pgbenchProgram is the scripts as the runtime runs them: each -f file
// with its per-engine variants beside it, each built-in as parsed;
// debug() writes to the plan's Stderr and \shell to its Stdout, as
// pgbench's do to its own.
func pgbenchProgram(o *pgbench.Options, scale int, seed uint64, plan PgbenchPlan) (*script.Program, error) {
	var sources []script.Source
	for i, spec := range o.Specs {
		src := script.Source{Script: o.Scripts[i]}
		if !spec.Builtin {
			var err error
			if src, err = script.WithVariants(o.Scripts[i]); err != nil {
				return nil, err
			}
		}
		sources = append(sources, src)
	}
	proto, err := script.ParseProtocol(string(o.Protocol))
	if err != nil {
		return nil, err
	}
	tries := int(o.MaxTries)
	if tries == 0 {
		tries = math.MaxInt32 // no limit but -L or -T, which the client keeps
	}
	opts := script.Options{
		Protocol: proto, MaxTries: tries, LatencyLimit: o.LatencyLimit, Scale: int64(scale),
		RandomSeed: seed, AllowShell: plan.AllowShell, Debug: plan.Stderr, ShellOutput: plan.Stdout,
		// pgbench's BEGIN gets PostgreSQL's default level.
		Isolation: dbms.ReadCommitted,
	}
	for _, d := range o.Defines {
		opts.Defines = append(opts.Defines, script.Define{Name: d.Name, Value: d.Value})
	}
	return script.NewProgram(sources, opts)
}

// pgbenchTypes names the driver's transaction types (the scripts, a
// repeated name numbered) and, under -r, their statements (each command,
// numbered).
func pgbenchTypes(o *pgbench.Options) (types []string, stmts [][]string) {
	seen := map[string]int{}
	for _, s := range o.Scripts {
		name := s.Name
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s (%d)", name, seen[s.Name])
		}
		types = append(types, name)
		if !o.PerCommand {
			continue
		}
		var cmds []string
		for j, c := range s.Commands {
			text, _, _ := strings.Cut(c.Text, "\n")
			cmds = append(cmds, fmt.Sprintf("%d: %s", j+1, text))
		}
		stmts = append(stmts, cmds)
	}
	return types, stmts
}
