package cli

import (
	"context"
	"errors"
	"io"
	"slices"
	"sort"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/ui"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// This file describes the experiment commands to the web interface
// (internal/ui, which must not import cli): each one's form is read from
// its real flag set, and a form's values are checked by the command line
// itself, so that a form refuses exactly what `dbgauge EXPERIMENT ...`
// refuses, with the same line.

// experimentNames are the commands that run one experiment into a run
// directory (experimentCmd.register adds each; wisconsin adds itself).
var experimentNames = map[string]bool{}

// registerExperiment offers the registered command name as a run form.
func registerExperiment(name string) { experimentNames[name] = true }

// groupAnnotation is the pflag annotation that puts a flag into a named
// group of the forms (flags bound together by one helper: retries,
// remote nodes, pausing).
const groupAnnotation = "dbgauge_group"

// inGroup puts the flags names of fl into the forms' group title.
func inGroup(fl *pflag.FlagSet, title string, names ...string) {
	for _, n := range names {
		fl.SetAnnotation(n, groupAnnotation, []string{title})
	}
}

// The groups of the flags no helper grouped, in the forms' order.
const (
	groupEngine   = "Engine"
	groupSettings = "Settings"
	groupSwitches = "Switches"
)

// notInForms are the flags a form does not set: the interface chooses
// the run directory, a form replaces the configuration file (its values
// can be saved as a profile), and help is no setting.
var notInForms = []string{"out", "config", "help"}

// forms is the command line as the web interface sees it.
type forms struct{}

var _ ui.Experiments = forms{}

// Forms describes every registered experiment command, in name order.
func (forms) Forms() []ui.Experiment {
	names := make([]string, 0, len(experimentNames))
	for n := range experimentNames {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]ui.Experiment, len(names))
	for i, n := range names {
		out[i] = describe(n)
	}
	return out
}

// describe reads the form of the command name from the command itself:
// its help and its flags as bound (defaults, usage, kinds), grouped.
func describe(name string) ui.Experiment {
	cmd := commands[name](io.Discard, io.Discard)
	e := ui.Experiment{Name: name, Short: cmd.Short, Long: cmd.Long}
	fs := cmd.Flags()
	fs.SortFlags = false // the order they were bound in: the author's
	fs.VisitAll(func(f *pflag.Flag) {
		if slices.Contains(notInForms, f.Name) {
			return
		}
		ff := ui.Flag{Name: f.Name, Kind: kind(f), Default: f.DefValue, Usage: f.Usage, Group: group(f),
			Hidden: f.Hidden, Secret: slices.Contains(secretFlags, f.Name), File: len(f.Annotations[workload.FileAnnotation]) > 0}
		if f.Value.Type() == "stringArray" {
			ff.Default = "" // pflag writes an empty list as "[]"
		}
		if c, ok := f.Value.(interface{ Allowed() []string }); ok {
			ff.Choices = c.Allowed()
		}
		e.Flags = append(e.Flags, ff)
	})
	rank := func(g string) int {
		if i := slices.Index([]string{groupEngine, groupSettings, groupSwitches}, g); i >= 0 {
			return i
		}
		return 3
	}
	slices.SortStableFunc(e.Flags, func(a, b ui.Flag) int {
		if ra, rb := rank(a.Group), rank(b.Group); ra != rb {
			return ra - rb
		}
		if a.Group < b.Group {
			return -1
		}
		if a.Group > b.Group {
			return 1
		}
		return 0
	})
	return e
}

// kind is how a form asks for f's value, from its type: the typed values
// of flagtype say whether they are lists or choices.
func kind(f *pflag.Flag) string {
	_, list := f.Value.(interface{ IsList() bool })
	c, choice := f.Value.(interface{ Allowed() []string })
	switch t := f.Value.Type(); {
	case t == "bool":
		return ui.KindBool
	case t == "int" || t == "int64":
		return ui.KindInt
	case t == "float64":
		return ui.KindFloat
	case t == "duration":
		return ui.KindDuration
	case t == "stringArray":
		return ui.KindRepeated
	case list:
		return ui.KindList
	case choice && c.Allowed() != nil:
		return ui.KindChoice
	}
	return ui.KindText
}

// group is f's group in the form: the one its binding named, the engine
// URLs, or the settings and switches of the experiment itself.
func group(f *pflag.Flag) string {
	if g := f.Annotations[groupAnnotation]; len(g) > 0 {
		return g[0]
	}
	switch {
	case isURLFlag(f.Name):
		return groupEngine
	case f.Value.Type() == "bool":
		return groupSwitches
	}
	return groupSettings
}

// checkOnlyKey marks the context of a command line that is only checked:
// the experiment commands return once their plan is whole.
type checkOnlyKey struct{}

// checkOnly tells an experiment command to stop before it touches
// anything: the plan was made, so the input is good.
func checkOnly(ctx context.Context) bool {
	return ctx != nil && ctx.Value(checkOnlyKey{}) != nil
}

// Check runs args (the experiment's name, then its flags) through the
// command line, stopping where the run would begin: "" when the command
// line would start the run, else the one line it prints (with its
// "dbgauge: " prefix). Nothing is written either way.
func (forms) Check(args []string) string {
	root := newRoot(io.Discard, io.Discard)
	if err := findCommand(root, args); err != nil {
		return errorLine(err)
	}
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	if err := root.ExecuteContext(context.WithValue(context.Background(), checkOnlyKey{}, true)); err != nil {
		return errorLine(err)
	}
	return ""
}

// Redact hides the passwords and secrets of args, as the manifest keeps
// a command line.
func (forms) Redact(args []string) []string { return redactArgs(args) }

// Child is args as a launched run gets them: passwords and secrets in
// its environment, never on its command line (childargs.go).
func (forms) Child(args []string) (argv, env []string, err error) {
	argv, env, err = childArgs(args)
	if err != nil {
		return nil, nil, errors.New(errorLine(err))
	}
	return argv, env, nil
}

// kinds of flagtype values without a Type of their own are recognised by
// these methods; keep them in step with flagtype.
var (
	_ interface{ IsList() bool }      = (*flagtype.List[int64])(nil)
	_ interface{ Allowed() []string } = (*flagtype.Value[string])(nil)
)
