package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
)

// This file turns every kind of bad input cobra and pflag detect into a
// *UsageError (exit code 2) by its type, never by its wording: flag errors
// through the root's flag error function, stray or missing arguments
// through the Args validators below, an unknown command through
// findCommand, a required flag left out through requiredFlags.

// flagError is the root's flag error function (cobra hands it every error
// of parsing a command's flags): one line naming the flag and the fix.
func flagError(cmd *cobra.Command, err error) error {
	var (
		inv    *pflag.InvalidValueError
		noflag *pflag.NotExistError
		noval  *pflag.ValueRequiredError
		syntax *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &inv):
		name, value := inv.GetFlag().Name, inv.GetValue()
		if strings.HasPrefix(value, "--") {
			return &UsageError{Msg: fmt.Sprintf("--%s needs a value before %s (example: --%s %s)", name, value, name, example(inv.GetFlag())), Err: err}
		}
		if inv.GetFlag().Value.Type() == "bool" {
			return &UsageError{Msg: fmt.Sprintf("--%s %q: give true or false (--%s alone is true)", name, value, name), Err: err}
		}
		return &UsageError{Msg: flagtype.Describe(name, value, errors.Unwrap(inv)), Err: err}
	case errors.As(err, &noflag):
		name := noflag.GetSpecifiedName()
		if short := noflag.GetSpecifiedShortnames(); short != "" {
			name = "-" + name
			if short != name[1:] {
				name += " (in -" + short + ")"
			}
		} else {
			name = "--" + name
		}
		return &UsageError{Msg: fmt.Sprintf("unknown flag %s for %q (%s --help lists its flags)", name, cmd.CommandPath(), cmd.CommandPath()), Err: err}
	case errors.As(err, &noval):
		f := noval.GetFlag()
		return &UsageError{Msg: fmt.Sprintf("--%s needs a value (example: --%s %s)", f.Name, f.Name, example(f)), Err: err}
	case errors.As(err, &syntax):
		return &UsageError{Msg: fmt.Sprintf("bad flag syntax %s: write --name value or --name=value (%s --help lists the flags)", syntax.GetSpecifiedFlag(), cmd.CommandPath()), Err: err}
	}
	return &UsageError{Msg: err.Error(), Err: err}
}

// exampleAnnotation is the pflag annotation that gives a plain string
// flag (--db) an example value for the messages, where it has no default.
const exampleAnnotation = "dbgauge_example"

// example is a value for flag f, for "needs a value" messages.
func example(f *pflag.Flag) string {
	if e, ok := f.Value.(flagtype.Exampler); ok && e.Example() != "" {
		return e.Example()
	}
	if e := f.Annotations[exampleAnnotation]; len(e) > 0 {
		return e[0]
	}
	if f.DefValue != "" && f.DefValue != "[]" {
		return f.DefValue
	}
	return strings.ToUpper(f.Name)
}

// noArgs is cobra.NoArgs as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, but was given %q (flags start with --; %s --help lists them)", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// exactArgs is cobra.ExactArgs as a usage error; what names them.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s, but was given %d argument(s): %s", cmd.CommandPath(), what, len(args), useLine(cmd))
		}
		return nil
	}
}

// minArgs is cobra.MinimumNArgs as a usage error; what names them.
func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("%s needs %s, but was given %d argument(s): %s", cmd.CommandPath(), what, len(args), useLine(cmd))
		}
		return nil
	}
}

func useLine(cmd *cobra.Command) string {
	return "dbgauge " + strings.TrimPrefix(strings.TrimSuffix(cmd.UseLine(), " [flags]"), "dbgauge ")
}

// findCommand refuses a command line whose command does not exist. Cobra
// reports an unknown subcommand of the root from Find, before any
// validator runs, and shows the help of a command group (server) given an
// unknown subcommand; both are usage errors here.
func findCommand(root *cobra.Command, args []string) error {
	root.InitDefaultHelpCmd()
	cmd, rest, err := root.Find(args)
	if err == nil && (cmd == root || cmd.Runnable() || !cmd.HasSubCommands()) {
		return nil
	}
	name := ""
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			name = a
			break
		}
	}
	if err != nil {
		cmd = root // Find errs only for an unknown subcommand of the root
	}
	if name == "" {
		return nil // a group with only flags: cobra shows its help
	}
	msg := fmt.Sprintf("unknown command %q for %q", name, cmd.CommandPath())
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf(": did you mean %s?", strings.Join(s, " or "))
	}
	return usagef("%s (%s --help lists the commands)", msg, cmd.CommandPath())
}

// requiredFlags refuses a command whose flags marked required (cobra's
// MarkFlagRequired) were given neither on the command line nor in
// --config; it runs after the config file is applied.
func requiredFlags(cmd *cobra.Command) error {
	var missing []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) > 0 && req[0] == "true" && !f.Changed {
			missing = append(missing, fmt.Sprintf("--%s (example: --%s %s)", f.Name, f.Name, example(f)))
		}
	})
	if len(missing) > 0 {
		return usagef("%s needs %s", cmd.CommandPath(), strings.Join(missing, " and "))
	}
	return nil
}

// emptyValues refuses a plain string flag given as "" (--db "", or db: ""
// in --config): an empty --db, --out or --config is a variable that was
// not set, not a request for the default. The typed flags (flagtype)
// judge "" themselves.
func emptyValues(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err != nil || !f.Changed || f.Value.Type() != "string" || f.Value.String() != "" {
			return
		}
		if _, typed := f.Value.(flagtype.Exampler); typed {
			return
		}
		msg := fmt.Sprintf("--%s \"\": give a value (example: --%s %s)", f.Name, f.Name, example(f))
		if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) == 0 || req[0] != "true" {
			msg += fmt.Sprintf(", or leave --%s out for its default", f.Name)
		}
		err = usagef("%s", msg)
	})
	return err
}
