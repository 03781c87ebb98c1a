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

// TestFailover crashes a node of a cluster under TPC-B load, on loopback:
// a Galera node that every writer uses, and a PostgreSQL primary with
// two standbys, synchronous and not. The run must report the outage the
// clients saw, their errors, the time back to the rate, the promotion
// and the node's rejoin, and check every acknowledged write against the
// history: with synchronous replication (Galera's, or a synchronous
// standby promoted) none may be lost, and the test asserts it. After an
// asynchronous promotion some may be: the figure is reported, and a loss
// fails the consistency check, which must then name it.
func TestFailover(t *testing.T) {
	cases := []struct {
		name, kind string
		opt        server.ClusterOptions
		spread     string
		promoted   bool
		zeroLost   bool
	}{
		{"galera-writes-to-the-killed-node", "galera", server.ClusterOptions{Nodes: 3}, "writes-to-first", false, true},
		{"postgres-sync", "postgres", server.ClusterOptions{Nodes: 3, Sync: true}, "round-robin", true, true},
		{"postgres-async", "postgres", server.ClusterOptions{Nodes: 3}, "round-robin", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := servertest.StartCluster(t, tc.kind, tc.opt)
			dir := filepath.Join(t.TempDir(), "run")
			args := []string{"dsbench", "--cluster", c.Dir, "--fault", "kill-node=1@5s", "--rejoin-after", "3s", "--retry", "--backoff-cap", "200ms",
				"--spread", tc.spread, "--scales", "1", "--cycles", "2", "--duration", "12s", "--threads", "4", "--out", dir}
			code, stdout, stderr := run(args...)
			s := failoverScale(t, dir, code, stderr)
			f := s.Failover
			t.Logf("%s: %+v", tc.name, *f)
			if f.Fault != "" || f.KillAt.IsZero() || f.Node != 1 || f.AfterS < 5 {
				t.Errorf("failover %+v: want node 1 killed 5 s or more into the load, no fault of its steps", *f)
			}
			if tc.promoted != (f.Promoted > 1 && f.PromotedS != nil) {
				t.Errorf("promoted node %d after %v: want a promotion %v", f.Promoted, f.PromotedS, tc.promoted)
			}
			if f.RejoinS == nil || *f.RejoinS <= 0 || f.RejoinHow == "" || f.RejoinStartS == nil || *f.RejoinStartS < 3 {
				t.Errorf("rejoin %v after %v (%q): want node 1 back in step, started 3 s or more after the kill", f.RejoinS, f.RejoinStartS, f.RejoinHow)
			}
			// A crashed Galera node's position is recovered before it
			// starts: it catches up from the others' cache, without a
			// full copy whose donor would refuse writes.
			if tc.kind == "galera" && !strings.Contains(f.RejoinHow, "(IST)") {
				t.Errorf("rejoin %q: want an incremental state transfer", f.RejoinHow)
			}
			// Every writer was on node 1: each saw the crash and came back.
			if f.BeforeTPS <= 0 || f.ClientsAffected != 4 || f.ClientsNotBack != 0 || f.ClientOutageMaxS <= 0 || f.OutageS <= 0 || len(f.Errors) == 0 {
				t.Errorf("before %.1f tps, %d clients affected (%d not back), client outage max %.2f s, outage %.2f s, errors %v: want 4 clients that lost node 1 and came back",
					f.BeforeTPS, f.ClientsAffected, f.ClientsNotBack, f.ClientOutageMaxS, f.OutageS, f.Errors)
			}
			// Whether the rate comes back within the observed seconds depends
			// on the machine's load (a timing threshold if asserted); when it
			// does, it cannot be before the clients' outage ended.
			if f.BackToRateS != nil && *f.BackToRateS < f.OutageS {
				t.Errorf("back to the rate after %.2f s, outage %.2f s: want the rate back not before the outage ended", *f.BackToRateS, f.OutageS)
			}
			if len(f.Timeline.TPS) == 0 || len(f.Timeline.TPS) != len(f.Timeline.Errors) || f.Timeline.StartS > -4 {
				t.Errorf("timeline from %.1f s, %d rates, %d error rates: want the seconds before the kill too", f.Timeline.StartS, len(f.Timeline.TPS), len(f.Timeline.Errors))
			}
			if !f.Checked || f.Acked < s.Transactions || f.Acked == 0 {
				t.Errorf("acked writes checked %v: %d, the scale committed %d: want every committed transaction checked", f.Checked, f.Acked, s.Transactions)
			}
			if tc.zeroLost && f.LostAcked != 0 {
				t.Errorf("%d of %d acknowledged writes lost with synchronous replication: %+v", f.LostAcked, f.Acked, f.Lost)
			}
			if int64(len(f.Lost)) != min(f.LostAcked, maxLostListedTest) {
				t.Errorf("%d lost, %d listed", f.LostAcked, len(f.Lost))
			}
			switch {
			case f.LostAcked == 0 && (code != 0 || !s.Consistent):
				t.Errorf("exit %d, consistent %v, no acknowledged write lost: want a complete, consistent run\n%s", code, s.Consistent, stderr)
			case f.LostAcked > 0 && (code != 1 || s.Consistent || !strings.Contains(strings.Join(s.Inconsistency, " "), "history holds")):
				t.Errorf("%d acknowledged writes lost, exit %d, inconsistencies %v: want the check to fail on the history", f.LostAcked, code, s.Inconsistency)
			}
			if !strings.Contains(stdout+stderr, "failover: node 1") {
				t.Errorf("the terminal was not told of the failover:\n%s", stdout)
			}
			// The cluster is whole again: the record names a running
			// primary (or every Galera node), and the next run needs no
			// help.
			now, err := server.LoadCluster(c.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if tc.promoted && f.Promoted > 0 && (now.Nodes[0].Role != server.RoleStandby || now.Nodes[f.Promoted-1].Role != server.RolePrimary) {
				t.Errorf("roles after the failover: n1 %s, n%d %s", now.Nodes[0].Role, f.Promoted, now.Nodes[f.Promoted-1].Role)
			}
			clusterSweep(t, now.URL, "--mode", "tpcb", "--spread", "writes-to-first")
		})
	}
}

// maxLostListedTest is how many lost writes results.json lists at most.
const maxLostListedTest = 100

// TestFaultBadInput: a fault the command line cannot carry out is one
// line naming the flag and the fix, exit 2, nothing written.
func TestFaultBadInput(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--fault", "kill-node=1@5s", "--retry"}, "--fault kill-node=1@5s needs --cluster DIR"},
		{[]string{"--fault", "kill-node=x@5s", "--retry"}, "give kill-node=N@AT"},
		{[]string{"--fault", "kill-node=0@5s", "--retry", "--cluster", empty}, "nodes are numbered from 1"},
		{[]string{"--fault", "kill-node=1@soon", "--retry", "--cluster", empty}, "is no positive duration"},
		{[]string{"--fault", "kill-node=1@5s", "--cluster", empty}, "add --retry"},
		{[]string{"--fault", "kill-node=1@5m", "--retry", "--cluster", empty}, "the first scale's load lasts"},
		{[]string{"--fault", "kill-node=1@5s", "--retry", "--cluster", empty}, "--cluster " + empty + ": no cluster of dbgauge's there"},
		{[]string{"--cluster", empty}, "--cluster applies only with --fault"},
		{[]string{"--rejoin-after", "5s"}, "--rejoin-after applies only with --fault"},
		{[]string{"--check-acks", "--mode", "select"}, "--check-acks: --mode select writes nothing to check"},
		{[]string{"--check-acks", "--form", "procedure"}, "--form procedure: the check of acknowledged writes"},
		{[]string{"--check-acks", "--nodes", "2", "--listen", "127.0.0.1:0", "--db", "postgres://u@127.0.0.1:1/db"}, "--check-acks: the clients' list of acknowledged writes is kept where they run"},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		args := append([]string{"dsbench", "--scales", "1", "--cycles", "2", "--duration", "10s", "--out", dir}, tc.args...)
		code, _, stderr := run(args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: bad input left %s behind", tc.args, dir)
		}
	}
}

// TestOrdersFailover: the order-entry workload through a crash of a
// PostgreSQL primary with a synchronous standby, promoted: the clients
// come back, no acknowledged Payment is lost, and every consistency
// condition but 11 holds at the scale's end (the check after the last
// cycle reads them all on the promoted primary).
func TestOrdersFailover(t *testing.T) {
	c := servertest.StartCluster(t, "postgres", server.ClusterOptions{Nodes: 2, Sync: true})
	dir := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := run("dsbench", "--cluster", c.Dir, "--workload", "orders", "--fault", "kill-node=1@5s", "--rejoin-after", "3s",
		"--retry", "--backoff-cap", "200ms", "--spread", "writes-to-first", "--scales", "1", "--cycles", "2", "--duration", "12s",
		"--threads", "4", "--out", dir)
	s := failoverScale(t, dir, code, stderr)
	f := s.Failover
	if f.Promoted != 2 || f.ClientsNotBack != 0 || f.ClientsAffected == 0 {
		t.Errorf("failover %+v: want node 2 promoted and every client back", *f)
	}
	if !f.Checked || f.Acked == 0 || f.LostAcked != 0 {
		t.Errorf("acknowledged payments: checked %v, %d, %d lost: want some checked and none lost with a synchronous standby", f.Checked, f.Acked, f.LostAcked)
	}
	if code != 0 || !s.Consistent || len(s.Cycles) != 2 {
		t.Errorf("exit %d, consistent %v (%v), %d cycles: want a complete run whose every condition holds\n%s\n%s", code, s.Consistent, s.Inconsistency, len(s.Cycles), stdout, stderr)
	}
}

// failoverScale is the one scale of a failover run's results.json, which
// must hold the failover.
func failoverScale(t *testing.T, dir string, code int, stderr string) results.ScaleResult {
	t.Helper()
	var res results.DSBenchResults
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("exit %d, no results.json: %v\n%s", code, err, stderr)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Scales) != 1 || res.Scales[0].Failover == nil {
		t.Fatalf("exit %d: no failover in results.json\n%s", code, stderr)
	}
	return res.Scales[0]
}
