package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/pgbench"
)

func init() { registerCommand("pgbench", newPgbench) }

// pgbench's exit codes, which dbgauge pgbench keeps instead of dbgauge's
// own (docs/pgbench.md §5): scripts that wrap pgbench test them.
const (
	// pgbenchBadStart is pgbench's 1: a bad command line, a database that
	// cannot be reached or is not initialised, a failed -i.
	pgbenchBadStart = 1
	// pgbenchAborted is pgbench's 2: clients aborted on errors during the
	// run (the report is printed; the run directory is written).
	pgbenchAborted = 2
)

// codedExit is an error whose exit code is its own.
type codedExit struct {
	code int
	err  error
}

func (e *codedExit) Error() string { return e.err.Error() }

func (e *codedExit) Unwrap() error { return e.err }

// pgbenchEnv are the environment variables dbgauge pgbench reads besides
// pgbench's own: pgbench's command line has no room for dbgauge's flags.
const (
	// envPgbenchOut is the run directory (default runs/<UTC time>-pgbench).
	envPgbenchOut = "DBGAUGE_PGBENCH_OUT"
	// envPgbenchShell set to 1 lets scripts run \shell and \setshell.
	envPgbenchShell = "DBGAUGE_ALLOW_SHELL"
)

const pgbenchLong = `Run pgbench's command line on any engine dbgauge drives and print pgbench's
report, so that pgbench scripts, command lines and report parsers work
unchanged on PostgreSQL, MariaDB, SQLite, DuckDB and Firebird.

Usage:
  dbgauge pgbench [OPTION]... [DBNAME | URL]

The options are pgbench 15's, parsed and checked as pgbench parses them:
-c -j -t -T -f FILE[@W] -b NAME[@W] -S -N -M -R -L -D NAME=VALUE -r -P -s -n -v
-C --random-seed --max-tries --latency-limit --failures-detailed
--progress-timestamp -d, and -i with -I -F -q --foreign-keys
--unlogged-tables; -b list and --show-script NAME print the built-in
scripts. The database is an engine URL (postgres://..., mysql://...,
sqlite:FILE, duckdb:FILE, firebird://...) as the last argument, or a
PostgreSQL database name with -h, -p and -U.

Standard output gets pgbench's version line and report, standard error its
vacuum, progress (-P) and error lines. Each run also writes a run directory
(default runs/<UTC time>-pgbench, or $DBGAUGE_PGBENCH_OUT) with what pgbench
does not print: results.json with residence-time percentiles of the run,
of each script and (with -r) of each command, percentiles.txt/.csv, pgbench.txt (the
report) and report.html. -i writes no run directory.

Scripts run \shell and \setshell only with DBGAUGE_ALLOW_SHELL=1. The exit
status is pgbench's: 0, 1 for a bad command line or a database that cannot
be used, 2 when clients aborted during the run. docs/pgbench.md says what
differs from pgbench.`

func newPgbench(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:                "pgbench [OPTION]... [DBNAME | URL]",
		Short:              "Run a pgbench command line on any engine and print pgbench's report",
		Long:               pgbenchLong,
		DisableFlagParsing: true, // pgbench's getopt reads them (internal/pgbench)
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runPgbench(cmd, args, stdout, stderr)
			if err == nil {
				return nil
			}
			var ce *codedExit
			if errors.As(err, &ce) {
				return err
			}
			return &codedExit{code: pgbenchBadStart, err: err}
		},
	}
	return cmd
}

func runPgbench(cmd *cobra.Command, args []string, stdout, stderr io.Writer) error {
	o, err := pgbench.Parse(args, os.Getenv)
	if err != nil {
		return err
	}
	switch o.Mode {
	case pgbench.Help:
		fmt.Fprintln(stdout, cmd.Long)
		return nil
	case pgbench.Version:
		fmt.Fprintf(stdout, "pgbench (dbgauge %s) 15\n", Version())
		return nil
	case pgbench.ListBuiltins:
		return pgbench.WriteBuiltinList(stderr)
	case pgbench.ShowScript:
		return pgbench.WriteBuiltinScript(stderr, o.ShowScript)
	case pgbench.Initialize:
		return pgbenchInit(cmd.Context(), o, stderr)
	}
	s, release, err := pgbenchSetup(o.DB, args)
	if err != nil {
		return err
	}
	defer release()
	plan := experiment.PgbenchPlan{Options: o, Args: redactPgbenchArgs(args), Stdout: stdout, Stderr: stderr, AllowShell: os.Getenv(envPgbenchShell) == "1"}
	res, err := experiment.RunPgbench(cmd.Context(), s, plan)
	if res != nil {
		finishRun(stderr, stderr, s.Dir, "", false)
		fmt.Fprintf(stderr, "run directory: %s\n", s.Dir)
	}
	switch {
	case errors.Is(err, experiment.ErrPgbenchAborted):
		return &codedExit{code: pgbenchAborted, err: err}
	case err != nil && res != nil && res.Processed+res.Failed > 0:
		return &codedExit{code: pgbenchAborted, err: err}
	}
	return err
}

// redactPgbenchArgs hides the password of every argument that is a URL
// (pgbench's database operand), besides redactArgs' flags.
func redactPgbenchArgs(args []string) []string {
	out := redactArgs(args)
	for i, a := range out {
		out[i] = dbms.RedactPasswords(a)
	}
	return out
}

// pgbenchSetup is the run directory and the manifest's command line.
func pgbenchSetup(db string, args []string) (experiment.Setup, func(), error) {
	out, release, err := reserveOut(os.Getenv(envPgbenchOut), "pgbench")
	if err != nil {
		return experiment.Setup{}, nil, err
	}
	return experiment.Setup{DB: db, Dir: out, Command: redactPgbenchArgs(os.Args), Version: Version(),
		Config: map[string]any{"pgbench": redactPgbenchArgs(args)}}, release, nil
}

// pgbenchInit is -i: pgbench's tables made on the engine, its lines on
// standard error.
func pgbenchInit(ctx context.Context, o *pgbench.Options, stderr io.Writer) error {
	e, err := dbms.Open(ctx, o.DB)
	if err != nil {
		return err
	}
	defer e.Close()
	notes, err := pgbench.Init(ctx, e, o, stderr)
	for _, n := range notes {
		fmt.Fprintf(stderr, "pgbench: warning: %s\n", n)
	}
	return err
}
