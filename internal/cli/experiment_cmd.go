package cli

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"sort"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// commandCtor builds one of dbgauge's commands, writing to stdout and
// stderr.
type commandCtor func(stdout, stderr io.Writer) *cobra.Command

// commands are the registered commands by name; newRoot adds them all.
var commands = map[string]commandCtor{}

// registerCommand makes a command part of dbgauge. Each command registers
// itself from its own file; a duplicate name panics at start-up.
func registerCommand(name string, ctor commandCtor) {
	if _, dup := commands[name]; dup {
		panic(fmt.Sprintf("cli: command %q registered twice", name))
	}
	commands[name] = ctor
}

// registeredCommands builds every registered command, in name order.
func registeredCommands(stdout, stderr io.Writer) []*cobra.Command {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*cobra.Command, len(names))
	for i, n := range names {
		out[i] = commands[n](stdout, stderr)
	}
	return out
}

// experimentFlags are an experiment command's flags: bound to a flag set,
// then validated into the experiment's plan. Every refusal is one line
// naming the flag and the fix, and nothing is touched.
type experimentFlags[P any] interface {
	bind(fs *pflag.FlagSet)
	// plan validates the flags into the experiment's plan.
	plan() (P, error)
	// target is the engine URL ("" for the embedded default) and the run
	// directory ("" for runs/<UTC time>-<experiment>).
	target() (db, out string)
}

// experimentCmd is what one experiment's command adds to what every
// experiment command does (validate, make the run directory and its
// manifest, show progress, run, print the summary, then write bench.txt,
// report.html and the catalog row from what the run stored).
type experimentCmd[P any, R results.Results] struct {
	name, use, short, long string
	flags                  func() experimentFlags[P]
	run                    func(ctx context.Context, s experiment.Setup, plan P, pr *progress.Printer) (R, error)
	// summary is what stdout shows of the results; dir is the run
	// directory.
	summary func(res R, dir string) []byte
	// archive packs the run directory into DIR.tar.gz once the run has
	// results (complete or not).
	archive bool
	// subcommands are the command's own (optional).
	subcommands func(stdout, stderr io.Writer) []*cobra.Command
	// hidden keeps the command out of help and the generated docs.
	hidden bool
	// after maps the run's outcome to the command's error (nil: the
	// run's error as it is); it sees the results, which may be partial.
	after func(res R, err error) error
}

// register makes the experiment's command part of dbgauge, and, when its
// results kind has units, `dbgauge resume` able to continue its runs.
func (e experimentCmd[P, R]) register() {
	registerCommand(e.name, e.command)
	registerExperiment(e.name)
	if e.resumable() {
		registerResumer(e.name, e.resume)
	}
}

// resumable tells whether the experiment journals its units (its results
// kind names them), so that its runs can pause on errors and be resumed.
func (e experimentCmd[P, R]) resumable() bool {
	k, err := results.KindOf(e.name)
	return err == nil && k.Units != ""
}

func (e experimentCmd[P, R]) command(stdout, stderr io.Writer) *cobra.Command {
	f := e.flags()
	var pause *pauseFlags
	cmd := &cobra.Command{Use: e.use, Short: e.short, Long: e.long, Args: noArgs, Hidden: e.hidden,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan, err := f.plan()
			if err != nil || checkOnly(cmd.Context()) {
				return err
			}
			db, out := f.target()
			setup, release, err := runSetup(cmd, e.name, out, db)
			if err != nil {
				return err
			}
			defer release()
			setup.Pause = pause.policy()
			return e.execute(cmd.Context(), stdout, stderr, setup, plan)
		}}
	f.bind(cmd.Flags())
	if e.resumable() {
		pause = bindPause(cmd.Flags())
	}
	addRunFlags(cmd)
	if e.subcommands != nil {
		cmd.AddCommand(e.subcommands(stdout, stderr)...)
	}
	return cmd
}

// execute runs the experiment on a prepared run directory (a new one, or
// a stopped run's with setup.Resume), prints its summary and completes
// the run directory.
func (e experimentCmd[P, R]) execute(ctx context.Context, stdout, stderr io.Writer, setup experiment.Setup, plan P) error {
	pr := progress.New(stderr)
	ctx, lv, endLive := withLive(ctx, pr, e.resumable())
	setup.Live = lv
	res, err := e.run(ctx, setup, plan, pr)
	var head *results.Header
	if !isNil(res) {
		stdout.Write(e.summary(res, setup.Dir))
		finishRun(stdout, stderr, setup.Dir, "", e.archive)
		h := res.Head()
		head = &h
	}
	endLive(head, err)
	if e.after != nil {
		err = e.after(res, err)
	}
	if !isNil(res) && err != nil {
		// The run directory holds what was measured: whatever stopped
		// the run (an engine that refused a session once Ctrl-C
		// cancelled its context, too many open files), it is a failed
		// run, never bad input.
		err = &runFailed{err}
	}
	return err
}

// resume continues the stopped run p: the flags are set from the
// manifest's effective configuration through their own checks (db, when
// not "", replaces the stored engine URL, whose password the manifest
// hides), validated into the same plan, and the experiment runs on the
// same directory, skipping the units p says completed. override are
// flags given to `dbgauge resume` itself (--db, --pause-on-error), which
// replace the stored values.
func (e experimentCmd[P, R]) resume(ctx context.Context, stdout, stderr io.Writer, p *results.Progress, override map[string]string) error {
	plan, setup, err := storedPlan(e.flags(), p, override)
	if err != nil {
		return err
	}
	return e.execute(ctx, stdout, stderr, setup, plan)
}

// storedPlan is the plan and the setup of the stopped run p: f's flags
// (and --pause-on-error, --pause-limit) are set from the manifest's
// effective configuration through their own checks, override replacing
// stored values, and validated into the same plan as the run's; the
// setup names p's directory, command line and configuration.
func storedPlan[P any](f experimentFlags[P], p *results.Progress, override map[string]string) (P, experiment.Setup, error) {
	fs := pflag.NewFlagSet(p.Manifest.Experiment, pflag.ContinueOnError)
	f.bind(fs)
	pause := bindPause(fs)
	var plan P
	if err := setStoredFlags(fs, p.Manifest.Config, override); err != nil {
		return plan, experiment.Setup{}, err
	}
	plan, err := f.plan()
	if err != nil {
		return plan, experiment.Setup{}, err
	}
	db, _ := f.target()
	return plan, experiment.Setup{DB: db, Dir: p.Dir, Command: p.Manifest.Command, Config: p.Manifest.Config,
		Version: Version(), Resume: p, Pause: pause.policy()}, nil
}

// isNil tells whether a run returned no results at all (a nil pointer in
// an interface-typed or generic value).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// runDirLine is the summary's last line: where the run's files are.
func runDirLine(dir, files string) string {
	if files == "" {
		return fmt.Sprintf("run directory: %s\n", dir)
	}
	return fmt.Sprintf("run directory: %s (%s)\n", dir, files)
}
