package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/sqlite"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
)

// The test job inserts one row per transaction into t(node, thread) of
// the SQLite file its payload names, and counts its commits. Its
// transactions are of two types, by the thread's parity.
const testKind = "test-insert"

type testPayload struct{ URL string }

func init() {
	Register(testKind, func(ctx context.Context, payload json.RawMessage, env Env) (*Load, error) {
		var p testPayload
		if err := json.Unmarshal(payload, &p); err != nil {
			return nil, err
		}
		var commits atomic.Int64
		return &Load{
			Config: driver.Config{
				Open:  func(ctx context.Context, _ *driver.Session) (dbms.Engine, error) { return dbms.Open(ctx, p.URL) },
				Types: []string{"even", "odd"},
				NewOp: func(node, thread int) driver.Op {
					return func(ctx context.Context, s *driver.Session) error {
						s.Type = thread % 2
						if err := s.Tx.Begin(ctx, dbms.ReadCommitted); err != nil {
							return err
						}
						if _, err := s.Tx.ExecArgs(ctx, "INSERT INTO t VALUES (?, ?)", node, thread); err != nil {
							return err
						}
						if err := s.Tx.Commit(ctx); err != nil {
							return err
						}
						commits.Add(1)
						return nil
					}
				},
			},
			Counters: func() map[string]int64 { return map[string]int64{"commits": commits.Swap(0)} },
		}, nil
	})
}

// testDB is an SQLite file with the table t.
func testDB(t *testing.T) string {
	url := "sqlite:" + filepath.Join(t.TempDir(), "t.db") + "?_journal_mode=WAL&_busy_timeout=10000"
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Exec(context.Background(), "CREATE TABLE t (node INTEGER, thread INTEGER)"); err != nil {
		t.Fatal(err)
	}
	return url
}

func countRows(t *testing.T, url, where string) int64 {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.QueryRows(context.Background(), "SELECT count(*) FROM t"+where)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.ParseInt(r[0][0], 10, 64)
	return n
}

// startAgents runs agents named names against url until they end; their
// errors come back on the channel, one per agent.
func startAgents(t *testing.T, ctx context.Context, url, version string, names ...string) chan error {
	errs := make(chan error, len(names))
	for _, n := range names {
		go func() {
			errs <- Serve(ctx, AgentOptions{Dial: Dial{URL: url, Name: n}, Name: n, Version: version, Wait: 20 * time.Second,
				Dir: t.TempDir(), Log: func(f string, a ...any) { t.Logf("agent %s: %s", n, fmt.Sprintf(f, a...)) }})
		}()
	}
	return errs
}

// closeAgents ends the run and waits for its n agents, whose errors fail
// the test.
func closeAgents(t *testing.T, m *Master, errs chan error, n int) {
	t.Helper()
	m.Close("")
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("agent: %v", err)
		}
	}
}

func newTestMaster(t *testing.T, agents int) *Master {
	t.Helper()
	m, err := NewMaster(MasterOptions{Listen: Listen{Addr: "127.0.0.1:0"}, Agents: agents, Version: "test",
		Log: func(f string, a ...any) { t.Logf("master: %s", fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMergedCountsAreTheNodesSum(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testDB(t)
	m := newTestMaster(t, 2)
	errs := startAgents(t, ctx, m.URL, "test", "b", "a")
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	commits := map[int]int64{}
	checks := 0
	cfg := driver.Config{Threads: 2, Cycles: 2, Duration: 300 * time.Millisecond, Seed: 1,
		BetweenCycles: func(ctx context.Context, i int, c driver.CycleResult) error {
			// Every commit is in the table: the counters the agents sent
			// (late commits included) add up to its rows.
			mu.Lock()
			defer mu.Unlock()
			var sum int64
			for _, n := range commits {
				sum += n
			}
			if got := countRows(t, url, ""); got != sum {
				return fmt.Errorf("after cycle %d: %d rows, counters say %d", i, got, sum)
			}
			checks++
			return nil
		}}
	out, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1",
		Counters: func(node int, c map[string]int64) { mu.Lock(); commits[node] += c["commits"]; mu.Unlock() }}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if checks != 2 || len(out.Cycles) != 2 || len(out.Nodes) != 2 {
		t.Fatalf("checks %d, cycles %d, node cycles %d; want 2 each", checks, len(out.Cycles), len(out.Nodes))
	}
	var total int64
	for k, c := range out.Cycles {
		var sum, hist int64
		names := map[string]bool{}
		for _, n := range out.Nodes[k].Nodes {
			sum += n.Transactions
			names[n.Name] = true
		}
		hist = c.Residence.TotalCount()
		if c.Committed == 0 || c.Committed != sum || hist != sum {
			t.Errorf("cycle %d: merged %d committed, histogram %d, nodes' sum %d", c.Cycle, c.Committed, hist, sum)
		}
		// Per type: the threads of each parity, over both nodes.
		for i, ty := range c.Types {
			var want int64
			for _, th := range c.Threads {
				if th.Thread%2 == i {
					want += th.Committed
				}
			}
			if ty.Committed != want || ty.Residence.TotalCount() != want || want == 0 {
				t.Errorf("cycle %d type %s: %d committed, histogram %d; its threads committed %d", c.Cycle, ty.Name, ty.Committed, ty.Residence.TotalCount(), want)
			}
		}
		if len(c.Types) != 2 || out.Types[0].Committed+out.Types[1].Committed != out.Committed {
			t.Errorf("cycle %d: %d types; run's types do not sum to its %d commits", c.Cycle, len(c.Types), out.Committed)
		}
		if !names["a"] || !names["b"] || len(c.Threads) != 4 {
			t.Errorf("cycle %d: nodes %v, %d thread rows; want a and b, 4 rows", c.Cycle, names, len(c.Threads))
		}
		total += c.Committed
	}
	var perNode int64
	for k, r := range out.PerNode {
		perNode += r.Committed
		// Node k's threads wrote rows with node = k: its counted commits are
		// among them (the rows also hold commits after a cycle's end).
		if rows := countRows(t, url, fmt.Sprintf(" WHERE node = %d", k)); r.Committed == 0 || rows < r.Committed {
			t.Errorf("node %d: %d committed, %d rows", k, r.Committed, rows)
		}
	}
	if out.Committed != total || perNode != total {
		t.Errorf("totals: merged %d, cycles %d, per node %d", out.Committed, total, perNode)
	}
	if ag := m.Agents(); len(ag) != 2 || ag[0].Name != "a" || ag[1].Name != "b" || ag[0].Status != "ok" || ag[0].ClockErrorMS <= 0 {
		t.Errorf("agents %+v", ag)
	}
	closeAgents(t, m, errs, 2)
}

// One numbering: whichever agent registers first, the master names b
// node 2, as b's own log does ("as node 2 of 2"), and a node 1 in both;
// the report's tables number them the same way (results.NodeNumber).
func TestNodesNumberedAlike(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testDB(t)
	var mu sync.Mutex
	var lines []string
	logTo := func(who string) func(string, ...any) {
		return func(f string, a ...any) {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, who+": "+fmt.Sprintf(f, a...))
		}
	}
	m, err := NewMaster(MasterOptions{Listen: Listen{Addr: "127.0.0.1:0"}, Agents: 2, Version: "test", Log: logTo("master")})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for _, n := range []string{"b", "a"} {
		go func() {
			errs <- Serve(ctx, AgentOptions{Dial: Dial{URL: m.URL, Name: n}, Name: n, Version: "test", Wait: 20 * time.Second,
				Dir: t.TempDir(), Log: logTo("agent " + n)})
		}()
	}
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	cfg := driver.Config{Threads: 1, Cycles: 1, Duration: 200 * time.Millisecond, Seed: 1}
	if _, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1"}, cfg); err != nil {
		t.Fatal(err)
	}
	closeAgents(t, m, errs, 2)
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"master: load nodes, numbered in the order of the agents' names: node 1 a, node 2 b",
		"agent a: scale 1: 1 threads x 1 connections as node 1 of 2",
		"agent b: scale 1: 1 threads x 1 connections as node 2 of 2",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no line %q in:\n%s", want, all)
		}
	}
	if ag := m.Agents(); len(ag) != 2 || results.NodeNumber(ag[0].Node) != "1" || ag[0].Name != "a" || results.NodeNumber(ag[1].Node) != "2" {
		t.Errorf("agents %+v: want a as node 1, b as node 2", ag)
	}
}

func TestOpenLoopSplitsTheRate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testDB(t)
	m := newTestMaster(t, 2)
	defer m.Close("")
	startAgents(t, ctx, m.URL, "test", "a", "b")
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	// 200 per second evenly spaced over 2 nodes x 1 thread for 0.5 s:
	// exactly 100 intended starts in the cycle, 50 each, from the common
	// start (node 0 takes the even ones, node 1 the odd ones).
	out, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1"},
		driver.Config{Threads: 1, Cycles: 1, Duration: 500 * time.Millisecond, Rate: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var intended int64
	for _, th := range out.Cycles[0].Threads {
		if th.Intended != 50 {
			t.Errorf("node %d: %d intended starts, want 50", th.Node, th.Intended)
		}
		intended += th.Intended
	}
	if intended != 100 || out.Response == nil || out.Response.TotalCount() != out.Committed {
		t.Errorf("intended %d (want 100), response histogram %v, committed %d", intended, out.Response != nil, out.Committed)
	}
}

func TestAgentOfAnotherVersionRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := newTestMaster(t, 1)
	defer m.Close("")
	err := <-startAgents(t, ctx, m.URL, "other", "a")
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "runs dbgauge other and the master test") {
		t.Fatalf("agent of another version: %v", err)
	}
}

// TestAgentRefusals: an agent is refused with the reason when it runs
// another configuration or gives a wrong token, neither tried again until
// --wait runs out (the error would then be the wait's).
func TestAgentRefusals(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	serve := func(url, token, name, config string) error {
		return Serve(ctx, AgentOptions{Dial: Dial{URL: url, Token: token, Name: name}, Name: name, Version: "test",
			Wait: 50 * time.Second, config: config})
	}
	m := newTestMaster(t, 1)
	defer m.Close("")
	if err := serve(m.URL, "", "a", "other-config"); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "its configuration other-config differs") {
		t.Errorf("agent of another configuration: %v", err)
	}

	// The master says whom it refused for the token, and why: the agent's
	// refusal never reaches its hello.
	var mu sync.Mutex
	var said []string
	tm, err := NewMaster(MasterOptions{Listen: Listen{Addr: "127.0.0.1:0", Token: "right"}, Agents: 1, Version: "test",
		Log: func(f string, a ...any) { mu.Lock(); said = append(said, fmt.Sprintf(f, a...)); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close("")
	if err := serve(tm.URL, "wrong", "c", ""); !errors.Is(err, ErrCannotJoin) || !strings.Contains(err.Error(), "token") {
		t.Errorf("agent with a wrong token: %v", err)
	}
	if err := serve(tm.URL, "", "d", ""); !errors.Is(err, ErrCannotJoin) || !strings.Contains(err.Error(), "token") {
		t.Errorf("agent without a token: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"refused agent c from 127.0.0.1:", "refused agent d from 127.0.0.1:"} {
		if !slices.ContainsFunc(said, func(l string) bool { return strings.HasPrefix(l, want) && strings.Contains(l, "token") }) {
			t.Errorf("the master's log %q does not say %q with the token", said, want)
		}
	}
	if slices.ContainsFunc(said, func(l string) bool {
		return strings.Contains(l, "right") || strings.Contains(l, "wrong") && !strings.Contains(l, "a wrong token")
	}) {
		t.Errorf("the master's log shows a token: %q", said)
	}
}

// TestAgentRefusesRunName: the run name comes from the network and names
// the agent's directory of interval logs: one that is not a plain
// directory name is refused, and nothing is made outside --dir.
func TestAgentRefusesRunName(t *testing.T) {
	for _, run := range []string{"../escape", "a/b", "..", "", strings.Repeat("x", 65), "tab\there", "bell\a"} {
		t.Run(strconv.Quote(run), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			m := newTestMaster(t, 1)
			defer m.Close("")
			m.run = run
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "agents")
			err := Serve(ctx, AgentOptions{Dial: Dial{URL: m.URL, Name: "a"}, Name: "a", Version: "test", Wait: 20 * time.Second, Dir: dir})
			if !errors.Is(err, ErrCannotJoin) || !strings.Contains(err.Error(), "run name") {
				t.Errorf("run name %q: %v, want it refused", run, err)
			}
			if got, _ := os.ReadDir(tmp); len(got) > 0 {
				t.Errorf("made %v beside --dir", got)
			}
		})
	}
}

// TestAgentRefusesJobBeyondItsMachine: a job of more threads than the
// agent's machine can hold (open files or memory, whichever it runs out
// of first) fails before a session opens, and the master's run ends
// naming the agent and why, instead of the agent growing until the
// kernel kills it.
func TestAgentRefusesJobBeyondItsMachine(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url := testDB(t)
	m := newTestMaster(t, 1)
	defer m.Close("")
	startAgents(t, ctx, m.URL, "test", "a")
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1"},
		driver.Config{Threads: 100_000_000, Cycles: 1, Duration: 300 * time.Millisecond, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "agent a: 100000000 threads x 1 connections") {
		t.Fatalf("run of 100,000,000 threads on one agent: %v, want it refused naming the agent and the threads", err)
	}
	if n := countRows(t, url, ""); n != 0 {
		t.Errorf("%d transactions committed by a refused job", n)
	}
}
