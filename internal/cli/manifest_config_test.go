package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// effectiveFor parses a command line as Run would, applies --config and
// returns the configuration the manifest records.
func effectiveFor(t *testing.T, args []string) map[string]any {
	t.Helper()
	root := newRoot(os.Stdout, os.Stderr)
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if cmd.Flags().Lookup("config") != nil {
		if err := applyConfig(cmd.Flags()); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	return effectiveFlags(cmd.Flags())
}

// manifestCommandLines are command lines whose manifest configuration is
// pinned: defaults, values written in other forms than the canonical one
// (k suffixes, underscores, leading zeros, upper case) and a config file.
func manifestCommandLines(cfg string) [][]string {
	return [][]string{
		{"wisconsin"},
		{"wisconsin", "--size", "1k,2_000", "--reps", "05", "--org", "HEAP,hash", "--dest", "client,count", "--cache", "cold", "--queries", "1-8,20", "--seed", "007", "--limit", "90s", "--session", "SET a = 1", "--session", "SET b = 2", "--db", "postgres://u:secret@h/db"},
		{"wisconsin", "--config", cfg, "--reps", "3"},
		{"quickstart"},
		{"quickstart", "--size", "1000,2000", "--reps", "2"},
		{"generate", "--size", "10k", "--relation", "onektup", "--format", "tsv"},
		{"load", "--size", "1000,2000", "--relations", "tenktup1,onektup", "--db", "sqlite:/tmp/x.db"},
		{"storage"},
		{"storage", "--dir", "/tmp", "--size", "1G", "--duration", "1m30s", "--seed", "3"},
		{"dsbench"},
		{"dsbench", "--mode", "select", "--form", "statements", "--scales", "1,2,5", "--cycles", "3", "--duration", "10s", "--threads", "0", "--connections", "2", "--isolation", "serializable", "--rate", "100.5", "--confidence", "50,99.7", "--seed", "9", "--retry", "--prepare", "--reconnect", "--raw-times", "--drop"},
		{"qac"},
		{"qac", "--wisconsin", "1", "--cardinalities", "1k,2000", "--qe", "7", "--cache", "cold", "--max-restarts", "0", "--cpus", "0-1", "--seed", "4"},
		{"multiuser"},
		{"multiuser", "--users", "2,0,1", "--tuples", "1k", "--reps", "2", "--retrieves", "3", "--rows", "10", "--processes", "--subtract-overhead", "--seed", "5"},
		{"sizesweep"},
		{"sizesweep", "--sizes", "1000,100", "--access", "clustered,none", "--retrieve", "1pct", "--basis", "median", "--reps", "2", "--warmup", "0", "--seed", "6", "--keep"},
		{"abtest"},
		{"abtest", "--a", "postgres://u:p@h/db", "--b", "postgres://u:p@h2/db", "--wisconsin", "9-12", "--size", "2k", "--reps", "6", "--warmup", "0", "--cache", "both", "--dest", "count", "--level", "0.9", "--seed", "8"},
		{"speedup"},
		{"speedup", "--parallelism", "4,1,2", "--memory", "1GiB", "--ref", "2", "--size", "10k", "--reps", "2", "--memory-sweep", "64MiB,1MiB", "--sweep-p", "2", "--page-sizes", "4KiB,1024", "--dest", "count", "--seed", "2"},
	}
}

// The manifest records the effective flags through each flag's String():
// for the same command line it must not change (goldens taken before the
// flags were typed).
func TestManifestConfigUnchanged(t *testing.T) {
	tmp := t.TempDir()
	cfg := writeFile(t, tmp, "c.yaml", "size: [1000, 2000]\nreps: 1\nqueries: [20, 21]\nseed: 7\nsession: ['SET x = 1']\n")
	var got []map[string]any
	for _, args := range manifestCommandLines(cfg) {
		m := effectiveFor(t, args)
		if m["config"] == cfg {
			m["config"] = "CONFIG"
		}
		got = append(got, m)
	}
	b, _ := json.MarshalIndent(got, "", "  ")
	if path := os.Getenv("DBGAUGE_WRITE_GOLDEN"); path != "" {
		os.WriteFile(path, b, 0o644)
		return
	}
	want, err := os.ReadFile(filepath.Join("testdata", "manifest_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(b)) != strings.TrimSpace(string(want)) {
		os.WriteFile(filepath.Join(tmp, "got.json"), b, 0o644)
		t.Errorf("the manifest's configuration changed: diff testdata/manifest_config.json %s", filepath.Join(tmp, "got.json"))
	}
}
