package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// configCommands are the commands that read --config, in a fixed order,
// from a new command tree.
func configCommands() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("config") != nil {
			out = append(out, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
	return out
}

// FuzzConfig applies a --config file of any content to a command's flags,
// as the command does before it runs. Either every key is set through its
// flag, or the error is a usage error (exit code 2) on one line naming
// the file. A value set from the file is recorded in the manifest as its
// flag's String(); that text, given again, is accepted and recorded the
// same (the manifest's values can be fed back).
func FuzzConfig(f *testing.F) {
	n := len(configCommands())
	if n == 0 {
		f.Fatal("no command reads --config")
	}
	for _, body := range []string{
		"size: 1000\nreps: 3\norg: [heap, hash]\ndest: client\ncache: warm\nqueries: 1-8,20\nseed: 7\nlimit: 90s\nsession: [SET a = 1, SET b = 2]\ndb: postgres://u:secret@h/db\n",
		"sizes: [1000, 100]\naccess: [nonclustered, none]\nreps: 2\nseed: 7\n",
		"sizes: [100, x]\n",
		"reps: 0\n",
		"basis: mode\n",
		"access: [none, none]\n",
		"sizes: {a: 1}\n",
		"mode: select\nform: statements\nscales: [1, 2, 5]\nduration: 10s\nrate: 100.5\nconfidence: [50, 99.7]\nretry: true\n",
		"parallelism: [4, 1, 2]\nmemory: 1GiB\nmemory-sweep: [64MiB, 1MiB]\npage-sizes: [4KiB, 1024]\n",
		"users: [2, 0, 1]\ntuples: 1k\nprocesses: yes\n",
		"a: postgres://u:p@h/db\nb: postgres://u:p@h2/db\nlevel: 0.9\n",
		"dir: /tmp\nsize: 1G\nduration: 1m30s\n",
		"cardinalities: 1k,2000\nqe: 7\ncpus: 0-1\nmax-restarts: 0\n",
		"reps: ~\n",
		"config: other.yaml\n",
		"bogus: 1\n",
		"- a\n- b\n",
		"reps: [1, [2]]\n",
		"seed: 0x1F\nreps: 1e3\n",
		"{",
		"",
	} {
		for i := range n {
			f.Add(uint8(i), []byte(body)) // each file to each command
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		cmds := configCommands()
		cmd := cmds[int(which)%len(cmds)]
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := cmd.ParseFlags([]string{"--config", path}); err != nil {
			t.Fatal(err)
		}
		err := applyConfig(cmd.Flags())
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path) {
				t.Fatalf("%s --config %q: error %q (%T), want one line of a usage error naming the file", cmd.Name(), body, err, err)
			}
			return
		}
		fresh := configCommands()[int(which)%len(cmds)]
		for name, v := range effectiveFlags(cmd.Flags()) {
			fl := cmd.Flags().Lookup(name)
			if name == "config" || !fl.Changed || fl.Value.Type() == "stringArray" {
				continue
			}
			text := v.(string)
			if err := fresh.Flags().Set(name, text); err != nil {
				t.Fatalf("%s --config %q: %s is recorded as %q, which is refused: %v", cmd.Name(), body, name, text, err)
			}
			if again := fresh.Flags().Lookup(name).Value.String(); again != text {
				t.Fatalf("%s --config %q: %s is recorded as %q, and given again as %q", cmd.Name(), body, name, text, again)
			}
		}
	})
}
