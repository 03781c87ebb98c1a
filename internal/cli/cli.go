// Package cli is dbgauge's command line: commands, flags, config files,
// validation into plans, exit codes. It never touches an engine itself; it
// hands validated plans to experiments.
package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFailure  = 1 // a run failed part-way; what was measured is kept
	ExitBadInput = 2 // the user's input was wrong; nothing was written
)

// UsageError is bad input: one line, exit code 2. Err is the error it
// stands for, when it rewords one (pflag's, cobra's).
type UsageError struct {
	Msg string
	Err error
}

func (e *UsageError) Error() string { return e.Msg }

func (e *UsageError) Unwrap() error { return e.Err }

// runFailed is the error of a run that wrote its run directory: exit 1
// whatever the error's class.
type runFailed struct{ err error }

func (e *runFailed) Error() string { return e.err.Error() }

func (e *runFailed) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Run is main: it runs dbgauge with args and returns the exit code.
func Run(stdout, stderr io.Writer, args []string) int {
	ctx, stop := stopContext()
	defer stop()
	root := newRoot(stdout, stderr)
	if err := findCommand(root, args); err != nil {
		fmt.Fprintln(stderr, errorLine(err))
		return ExitBadInput
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, errorLine(err))
	return exitCode(err)
}

// errorLine is the one line dbgauge prints for err (the web interface's
// forms show the same). No message shows a password, whoever wrote it (a
// driver quoting the URL).
func errorLine(err error) string {
	return "dbgauge: " + dbms.RedactPasswords(firstLine(err.Error()))
}

// exitCode tells bad input (exit 2) from a failed run by the error's
// type: a *UsageError (flags, arguments, commands and plans refused, see
// usage.go) or an engine's refusal of the input.
func exitCode(err error) int {
	var ue *UsageError
	var rf *runFailed
	var ce *codedExit
	if errors.As(err, &ce) {
		return ce.code
	}
	if errors.As(err, &rf) {
		return ExitFailure
	}
	if errors.As(err, &ue) || dbms.Classify(err) == dbms.BadInput {
		return ExitBadInput
	}
	return ExitFailure
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "dbgauge",
		Short:         "A scientific workbench for measuring database systems",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version(),
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(flagError) // the subcommands inherit it
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := emptyValues(cmd.Flags()); err != nil {
			return err
		}
		if cmd.Flags().Lookup("config") != nil {
			return nil // checked once the file is applied (addConfigFlag)
		}
		return requiredFlags(cmd)
	}
	root.AddCommand(registeredCommands(stdout, stderr)...)
	return root
}

// addConfigFlag adds --config and makes the command read it before RunE:
// keys are long flag names; flags given on the command line win. Flags
// marked required must then be set by one or the other.
func addConfigFlag(cmd *cobra.Command) {
	cmd.Flags().String("config", "", "YAML file of flag defaults (keys are the long flag names)")
	cmd.Flags().SetAnnotation("config", exampleAnnotation, []string{"run.yaml"})
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := applyConfig(c.Flags()); err != nil {
			return err
		}
		if err := emptyValues(c.Flags()); err != nil {
			return err
		}
		if err := requiredFlags(c); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// applyConfig sets every flag the --config file names and the command
// line did not, through the flag's own Set: a typed flag refuses a bad
// value from the file as it does on the command line, naming the key and
// the file. A YAML list is one comma-separated value for a list flag and
// one Set per item for a repeatable flag (--session).
func applyConfig(fs *pflag.FlagSet) error {
	path, _ := fs.GetString("config")
	if path == "" {
		return nil
	}
	b, err := readConfig(path)
	if err != nil {
		return err
	}
	shape := fmt.Sprintf("give one flag: value per line, keys the long flag names (example: %s)", configExample(fs))
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return usagef("--config %s: not YAML (%s): %s", path, firstLine(err.Error()), shape)
	}
	var m map[string]any
	switch d := doc.(type) {
	case nil:
		return usagef("--config %s: the file sets nothing: %s", path, shape)
	case map[string]any:
		m = d
	case []any:
		return usagef("--config %s: a list at the top level: %s", path, shape)
	case map[any]any:
		return usagef("--config %s: a key that is not a flag name: %s", path, shape)
	default:
		return usagef("--config %s: a single value (%T) at the top level: %s", path, d, shape)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, f := m[k], fs.Lookup(k)
		if f == nil || k == "config" {
			return usagef("--config %s: unknown key %q (keys are the long flag names of this command)", path, k)
		}
		if f.Changed {
			continue
		}
		vals := []string{fmt.Sprint(v)}
		switch v.(type) {
		case nil:
			vals = []string{""}
		case map[string]any:
			return usagef("--config %s: key %s: give a value or a list, not a mapping", path, k)
		}
		if list, ok := v.([]any); ok {
			parts := make([]string, len(list))
			for i, x := range list {
				parts[i] = fmt.Sprint(x)
			}
			// A repeatable flag takes each item; a list flag one joined value.
			vals = parts
			if f.Value.Type() != "stringArray" {
				vals = []string{strings.Join(parts, ",")}
			}
		}
		for _, val := range vals {
			if err := fs.Set(k, val); err != nil {
				cause := err
				var inv *pflag.InvalidValueError
				if errors.As(err, &inv) {
					cause = inv.Unwrap()
				}
				return &UsageError{Msg: flagtype.DescribeKey(path, k, val, cause), Err: err}
			}
		}
	}
	return nil
}

// maxConfigBytes bounds a --config file (and the other small files a flag
// names, --tls-ca): a configuration is a few lines of flag: value, and a
// file without end (/dev/zero, a FIFO) must not be read until memory runs
// out.
const maxConfigBytes = 1 << 20

// readConfig reads the --config file at path.
func readConfig(path string) ([]byte, error) {
	return readSmallFile("--config", path, "give a YAML file of flag: value lines")
}

// readSmallFile reads the file at path that flag names, at most
// maxConfigBytes of it: a missing, unreadable or larger file is refused,
// one line naming the flag, the file, the bound and fix.
func readSmallFile(flag, path, fix string) ([]byte, error) {
	b, err := results.ReadBounded(path, maxConfigBytes)
	switch {
	case errors.Is(err, results.ErrTooLarge):
		return nil, usagef("%s %s: larger than %d KiB, the most dbgauge reads of it: %s", flag, path, maxConfigBytes>>10, fix)
	case err != nil:
		return nil, usagef("%s %s: %v: %s", flag, path, err, fix)
	}
	return b, nil
}

// configExample is a line of a config file for the flags fs: its first
// flag (by name) that takes a value, with an example value.
func configExample(fs *pflag.FlagSet) string {
	ex := "size: 10000"
	found := false
	fs.VisitAll(func(f *pflag.Flag) {
		if found || f.Name == "config" || f.Name == "help" || f.Value.Type() == "bool" {
			return
		}
		if v := example(f); v != strings.ToUpper(f.Name) {
			ex, found = f.Name+": "+v, true
		}
	})
	return ex
}

// effectiveFlags returns every flag's value, for the manifest. --tag is
// left out: tags label a run rather than configure it, and the manifest
// keeps them apart (its tags), where `dbgauge tag` changes them.
func effectiveFlags(fs *pflag.FlagSet) map[string]any {
	out := map[string]any{}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name != tagFlag {
			out[f.Name] = f.Value.String()
		}
	})
	return out
}
