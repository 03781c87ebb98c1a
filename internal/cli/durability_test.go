package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestDurabilityCompare measures what a durability setting costs on a
// replicated cluster as an A/B comparison: the same sweep with each
// client session's setting (--session) A and B, then dbgauge compare,
// which gives the verdict per metric and names the setting as what
// differs. On a PostgreSQL primary with a synchronous standby:
// synchronous_commit off against remote_apply; on Galera: reads with
// wsrep_sync_wait 0 against 1. What the verdicts are is measured, not
// asserted; that they are there, for every scale's rate and latency, is.
func TestDurabilityCompare(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		opt        server.ClusterOptions
		mode       string
		setting    string
		a, b       string
	}{
		{"postgres-sync", "postgres", server.ClusterOptions{Nodes: 2, Sync: true}, "tpcb", "synchronous_commit", "SET synchronous_commit = off", "SET synchronous_commit = remote_apply"},
		{"galera", "galera", server.ClusterOptions{Nodes: 3}, "select", "wsrep_sync_wait", "SET SESSION wsrep_sync_wait = 0", "SET SESSION wsrep_sync_wait = 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := servertest.StartCluster(t, tc.kind, tc.opt)
			tmp := t.TempDir()
			var dirs []string
			for _, set := range []string{tc.a, tc.b} {
				dir := filepath.Join(tmp, "run"+string(rune('a'+len(dirs))))
				code, _, stderr := run("dsbench", "--db", c.URL, "--mode", tc.mode, "--form", "statements", "--session", set, "--spread", "round-robin",
					"--scales", "1", "--cycles", "6", "--duration", "1s", "--threads", "4", "--out", dir)
				if code != 0 {
					t.Fatalf("--session %q: exit %d\n%s", set, code, stderr)
				}
				var m results.Manifest
				b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
				if err != nil || json.Unmarshal(b, &m) != nil || !strings.Contains(string(b), set) {
					t.Errorf("manifest of --session %q does not record it (%v)", set, err)
				}
				dirs = append(dirs, dir)
			}
			html := filepath.Join(tmp, "compare.html")
			code, stdout, stderr := run("compare", dirs[0], dirs[1], "--html", html)
			if code != 0 {
				t.Fatalf("compare: exit %d\n%s", code, stderr)
			}
			if !strings.Contains(stdout, "faster") || !strings.Contains(stdout, "slower") {
				t.Errorf("compare's summary counts no verdicts:\n%s", stdout)
			}
			page, err := os.ReadFile(html)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"rate at scale 1", "median residence time at scale 1", tc.setting} {
				if !strings.Contains(string(page), want) {
					t.Errorf("the comparison page lacks %q", want)
				}
			}
		})
	}
	t.Run("bad-session", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "run")
		code, _, stderr := run("dsbench", "--session", "SET no_such_setting = 1", "--scales", "1", "--cycles", "1", "--duration", "1s", "--out", dir)
		if code != 2 || !strings.Contains(stderr, `--session "SET no_such_setting = 1"`) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("exit %d, %q: want 2 and one line naming --session", code, stderr)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("bad input left %s behind", dir)
		}
	})
}
