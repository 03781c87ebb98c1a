package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/results"
)

// resumer continues a stopped run of one experiment; override are the
// flags given to `dbgauge resume` (by name), which replace stored values.
type resumer func(ctx context.Context, stdout, stderr io.Writer, p *results.Progress, override map[string]string) error

// resumers are the experiments whose runs can be resumed, by name; each
// registers itself through experimentCmd.register.
var resumers = map[string]resumer{}

func registerResumer(name string, r resumer) {
	if _, dup := resumers[name]; dup {
		panic(fmt.Sprintf("cli: resumer %q registered twice", name))
	}
	resumers[name] = r
}

func resumableNames() []string {
	names := make([]string, 0, len(resumers))
	for n := range resumers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() { registerCommand("resume", newResume) }

// newResume is `dbgauge resume DIR`.
func newResume(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "resume DIR",
		Short: "Continue a run that stopped (a fault, Ctrl-C, kill -9, a power loss) from its last complete unit",
		Long: `Continue the run in DIR from its last complete unit, with the
configuration its manifest.json recorded and the same seeds, appending to
its journal and results: dsbench continues from the first scale that did
not complete (a scale interrupted anywhere, its population included, is
measured again from its population); qac from the first Q@C that did not
complete (done again from its first execution); wisconsin from the first
query result that did not complete (a size with results left is loaded
and organised again, a completed size is not); multiuser from the first
step (user count and repetition) that did not complete, after loading and
warming up again; sizesweep from the first size that did not complete;
abtest from the first pair (A then B on one statement) that did not
complete, a query's completed pairs kept; speedup from the first point
(a query at one parallelism, memory or page size) that did not complete,
on relations loaded again. wisconsin --protocol ttp analyses the Q@Cs of
the query results it takes back with those it measures.
The run's results.json and report page list when it was resumed.

A run that completed is refused, and so are a run still going (another
dbgauge writes its journal, perhaps paused by --pause-on-error), a
directory that holds no run and a run of an experiment that cannot be
resumed. The manifest hides the password of the engine URL: give the URL
again with --db (with or without its password, which may come from
$DBGAUGE_DB_PASSWORD or where the engine's own tools read it); an abtest
run's --a and --b URLs likewise with --a and --b. --db may name the run's
engine and database at another address (a server restarted on another
port, moved to another host): the manifest then records the new URL and
the results say where the run measured before; another engine or another
database is refused. --pause-on-error
and --pause-limit, when given, replace the run's own.`,
		Args: exactArgs(1, "the run directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := results.ReadProgress(args[0])
			if err != nil {
				if errors.Is(err, results.ErrNotResumable) {
					return usagef("%v", err)
				}
				return err
			}
			r, ok := resumers[p.Manifest.Experiment]
			if !ok {
				return usagef("%s holds a %s run, which cannot be resumed (resumable: %s): run it again", args[0], p.Manifest.Experiment, strings.Join(resumableNames(), ", "))
			}
			override := map[string]string{}
			cmd.Flags().Visit(func(f *pflag.Flag) { override[f.Name] = f.Value.String() })
			if err := movedDB(p, override["db"]); err != nil {
				return err
			}
			return r(cmd.Context(), stdout, stderr, p, override)
		}}
	cmd.Flags().String("db", "", "the engine URL, when the manifest hides its password (default: the URL the run used)")
	// abtest's variants may be two URLs, whose passwords the manifest
	// hides too: each is given again as the run had it (repeatable, with
	// its session statements, if any).
	cmd.Flags().StringArray("a", nil, "abtest: variant A's values (--a) again, when the manifest hides the password of its URL")
	cmd.Flags().StringArray("b", nil, "abtest: variant B's values (--b) again, when the manifest hides the password of its URL")
	cmd.Flags().String("token", "", "dsbench on remote agents: the agents' token again (default: $"+tokenEnv+"), which the manifest hides")
	bindPause(cmd.Flags()) // read as overrides: only the flags given replace the run's
	return cmd
}

// movedDB takes --db naming the run's engine and database at another
// address (its server restarted on another port, or moved): the run goes
// on there, its manifest names the new URL (passwords hidden) and its
// results say where it measured before. A URL of another engine or
// another database is refused: a resumed run measures what its first
// part did. Whether the new server answers is found as the run opens it.
func movedDB(p *results.Progress, db string) error {
	stored, had := p.Manifest.Config["db"]
	if db == "" || !had {
		return nil
	}
	old, now := fmt.Sprint(stored), redactURL(db)
	if now == old {
		return nil
	}
	ou, err := dbms.ParseURL(old)
	if err != nil {
		return nil // the stored value's own check speaks
	}
	nu, err := dbms.ParseURL(db)
	if err != nil {
		return usagef("--db: %v", err)
	}
	if !dbms.SameEngine(db, old) || nu.Database != ou.Database {
		return usagef("--db %s is not the run's engine and database (%s %q at %s): give a URL of the same engine and database", now, ou.Scheme, ou.Database, old)
	}
	p.Manifest.Config["db"] = now
	p.Manifest.DB = now
	p.Warnings = append(p.Warnings, fmt.Sprintf("resumed on %s; the run measured on %s before", now, old))
	return nil
}

// pauseFlags are --pause-on-error and --pause-limit, which every command
// of an experiment with units has.
type pauseFlags struct {
	on    bool
	limit *flagtype.Value[time.Duration]
}

// bindPause binds --pause-on-error and --pause-limit to fs.
func bindPause(fs *pflag.FlagSet) *pauseFlags {
	p := &pauseFlags{limit: flagtype.Duration(experiment.DefaultPauseLimit)}
	fs.BoolVar(&p.on, "pause-on-error", false, fmt.Sprintf("when a unit (a scale, a Q@C, a pair, a point) fails with a fault, keep what was measured and try it again after %s, doubling up to %s between tries, instead of ending", experiment.PauseFirstWait, experiment.PauseMaxWait))
	fs.Var(p.limit, "pause-limit", "with --pause-on-error: end the run when a unit has been failing for this long")
	inGroup(fs, "Pausing on errors", "pause-on-error", "pause-limit")
	return p
}

// policy is the pause policy the flags say (none for a nil p: an
// experiment without units).
func (p *pauseFlags) policy() experiment.PausePolicy {
	if p == nil {
		return experiment.PausePolicy{}
	}
	return experiment.PausePolicy{On: p.on, Limit: p.limit.V}
}

// setStoredFlags sets fs's flags from a manifest's effective
// configuration, through each flag's own Set, so that a stored value is
// checked as a typed one was; values equal to the default are left (the
// flag is then not "given"). override replaces stored values. --out and
// --config are not set: the run directory is the one resumed, and the
// configuration file's values are in the stored configuration already.
func setStoredFlags(fs *pflag.FlagSet, config map[string]any, override map[string]string) error {
	var errs []error
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "out" || f.Name == "config" {
			return
		}
		v, ok := override[f.Name]
		if stored, had := config[f.Name]; ok && had && isURLFlag(f.Name) && withoutPassword(v) != withoutPassword(fmt.Sprint(stored)) {
			// The URL given again must name the run's server: a resumed
			// run measures where its first part did.
			errs = append(errs, usagef("--%s %s is not the run's %s: give the URL the run used", f.Name, redactURL(v), stored))
			return
		}
		if !ok {
			stored, ok := config[f.Name]
			if !ok {
				return
			}
			v = fmt.Sprint(stored)
			if slices.Contains(secretFlags, f.Name) && v == redacted {
				if os.Getenv(tokenEnv) == "" {
					errs = append(errs, usagef("the manifest hides --%s: give it again, dbgauge resume DIR --%s T (or set $%s)", f.Name, f.Name, tokenEnv))
				}
				return
			}
			if isURLFlag(f.Name) && hidesPassword(v) {
				errs = append(errs, usagef("the manifest hides the password of --%s (%s): give the URL again, dbgauge resume DIR --%s URL (its password in the URL, $%s or where the engine's tools read it)", f.Name, v, f.Name, dbms.PasswordEnv))
				return
			}
		}
		if v == f.DefValue {
			return
		}
		var err error
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			// A repeatable flag's value is "[a,b]", its items CSV-quoted.
			var items []string
			if items, err = csv.NewReader(strings.NewReader(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"))).Read(); err == nil {
				err = sv.Replace(items)
				f.Changed = true
			}
		} else {
			err = fs.Set(f.Name, v)
		}
		if err != nil {
			errs = append(errs, usagef("the run's --%s %q: %v", f.Name, v, err))
		}
	})
	return errors.Join(errs...)
}
