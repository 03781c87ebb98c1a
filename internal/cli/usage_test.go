package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Bad command lines cobra and pflag detect are usage errors by type: exit
// code 2, one line naming the command or flag and the fix, nothing
// written (neither the run directory nor anything on stdout).
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // parts of the one line
	}{
		{"unknown command", []string{"wisconsn"}, []string{`unknown command "wisconsn"`, "did you mean wisconsin?", "dbgauge --help"}},
		{"unknown subcommand", []string{"server", "restart"}, []string{`unknown command "restart" for "dbgauge server"`, "dbgauge server --help"}},
		{"unknown flag", []string{"wisconsin", "--bogus"}, []string{"unknown flag --bogus", "dbgauge wisconsin --help"}},
		{"unknown shorthand", []string{"dsbench", "-x"}, []string{"unknown flag -x", "dbgauge dsbench --help"}},
		{"bad value", []string{"sizesweep", "--sizes", "10,x"}, []string{`--sizes "10,x": "x" is not a positive whole number (example: --sizes 10000,100000)`}},
		{"bad int", []string{"wisconsin", "--reps", "x"}, []string{`--reps "x": not a whole number (example: --reps 10)`}},
		{"bad duration", []string{"dsbench", "--duration", "5"}, []string{`--duration "5": not a duration`, "ns, us, ms, s, m or h"}},
		{"bad size", []string{"speedup", "--memory", "64Mb"}, []string{`--memory "64Mb": not a size`, "KiB, MiB", "example: --memory 256MiB"}},
		{"bad choice", []string{"qac", "--cache", "hot"}, []string{`--cache "hot": give warm or cold`}},
		{"bad bool", []string{"wisconsin", "--drop=maybe"}, []string{`--drop "maybe": give true or false`}},
		{"missing value", []string{"wisconsin", "--size"}, []string{"--size needs a value", "example: --size"}},
		{"value is a flag", []string{"wisconsin", "--size", "--drop"}, []string{"--size needs a value before --drop"}},
		{"extra argument", []string{"wisconsin", "10000"}, []string{`dbgauge wisconsin takes no arguments, but was given "10000"`, "dbgauge wisconsin --help"}},
		{"missing argument", []string{"server", "start", "--dir", "x"}, []string{"dbgauge server start takes the engine", "dbgauge server start ENGINE --dir DIR"}},
		{"too few arguments", []string{"compare", "runs/a"}, []string{"dbgauge compare needs the baseline run directory and at least one other", "BASELINE DIR"}},
	}
	tmp := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(tmp) // a command that ran would write under runs/
			code, stdout, stderr := run(c.args...)
			if code != ExitBadInput {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stdout != "" {
				t.Errorf("stderr %q stdout %q: want one line on stderr only", stderr, stdout)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("written on bad input: %v", left)
			}
		})
	}
}

// A --config file goes through the flags' own Set: a bad value names the
// key and the file; a YAML list is a list flag's value.
func TestConfigTyped(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"bad list item", "sizes: [100, x]\n", []string{"--config ", "c.yaml: key sizes \"100,x\": \"x\" is not a positive whole number (example: sizes: 10000,100000)"}},
		{"bad int", "reps: 0\n", []string{"c.yaml: key reps \"0\": give at least 1"}},
		{"bad choice", "basis: mode\n", []string{"c.yaml: key basis \"mode\": give mean or median"}},
		{"duplicate in list", "access: [none, none]\n", []string{"c.yaml: key access \"none,none\": none is given twice"}},
		{"mapping", "sizes: {a: 1}\n", []string{"c.yaml: key sizes: give a value or a list"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := writeFile(t, tmp, "c.yaml", c.body)
			out := filepath.Join(tmp, "out")
			code, stdout, stderr := run("sizesweep", "--config", cfg, "--out", out)
			if code != ExitBadInput || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("exit %d stdout %q stderr %q: want 2 and one line", code, stdout, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written on bad input", out)
			}
		})
	}
	// Lists in YAML map to list flags (validated, sorted as on the
	// command line); the command line wins over the file.
	cfg := writeFile(t, tmp, "ok.yaml", "sizes: [1000, 100]\naccess: [nonclustered, none]\nreps: 2\nseed: 7\n")
	f := newSizeSweepFlags()
	fl := pflag.NewFlagSet("sizesweep", pflag.ContinueOnError)
	f.bind(fl)
	fl.String("config", "", "")
	if err := fl.Parse([]string{"--config", cfg, "--reps", "3"}); err != nil {
		t.Fatal(err)
	}
	if err := applyConfig(fl); err != nil {
		t.Fatal(err)
	}
	got := effectiveFlags(fl)
	for k, want := range map[string]string{"sizes": "1000,100", "access": "nonclustered,none", "reps": "3", "seed": "7"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %s", k, got[k], want)
		}
	}
	if !slices.Equal(f.sizes.Values, []int64{100, 1000}) || !slices.Equal(f.access.Values, []string{"none", "nonclustered"}) || f.reps.V != 3 || f.seed.V != 7 {
		t.Errorf("values %v %v %d %d", f.sizes.Values, f.access.Values, f.reps.V, f.seed.V)
	}
}

// A flag marked required is a usage error when neither the command line
// nor the --config file gives it.
func TestRequiredFlag(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		ok   bool
	}{
		{"missing", nil, false},
		{"on the command line", []string{"--dir", "d"}, true},
		{"in the config file", []string{"--config", writeFile(t, tmp, "c.yaml", "dir: d\n")}, true},
	} {
		root := &cobra.Command{Use: "dbgauge"}
		root.SetFlagErrorFunc(flagError)
		cmd := &cobra.Command{Use: "x", Args: noArgs, RunE: func(*cobra.Command, []string) error { return nil }}
		cmd.Flags().String("dir", "", "directory")
		cmd.MarkFlagRequired("dir")
		addConfigFlag(cmd)
		root.AddCommand(cmd)
		root.SetArgs(append([]string{"x"}, c.args...))
		root.SilenceErrors, root.SilenceUsage = true, true
		err := root.Execute()
		if c.ok != (err == nil) || (err != nil && (exitCode(err) != ExitBadInput || !strings.Contains(err.Error(), "dbgauge x needs --dir (example: --dir DIR)"))) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
