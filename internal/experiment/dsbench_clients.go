package experiment

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// dsbenchClients is what a sweep's client sessions run: the workload's
// clients, one per thread, and the counts the consistency check needs.
// The master's local load and a remote agent's load use it alike.
type dsbenchClients struct {
	w       workload.Workload
	cfg     workload.ClientConfig
	threads int // per node
	types   int // the workload's transaction types
	// scale is the scale being measured (read by the threads' ops and the
	// load sampler's goroutine).
	scale atomic.Int64
	// commits counts, per thread and type (thread*types + type), every
	// transaction that committed (also after a cycle's end): the check
	// compares them with the database.
	commits []atomic.Int64
	// inDoubt counts, per thread, the commits lost with their connection
	// (workload.ErrCommitInDoubt) since the last check.
	inDoubt []atomic.Int64
	// counts are a workload.Counter's counts, per thread and count
	// (thread*len(countNames) + count), since the last check.
	countNames []string
	counts     []atomic.Int64
	// acks, set while a node fault's scale runs or with --check-acks, is
	// each client thread's log of what it was told: its transactions are
	// tagged (failover.go).
	acks *ackLog
	// session are the statements every client session runs first.
	session []string
	// per are the threads' workload clients, made by newOp before the
	// load starts; each thread's sessions set up its own.
	per []workload.Client
	// seed is the run's (the scale's inputs derive from it) and allNodes
	// the nodes of the whole load (an agent runs one of them): a client
	// with generators of its own seeds them by its number among all.
	seed     uint64
	allNodes int
}

func newDSBenchClients(w workload.Workload, cfg workload.ClientConfig, threads, nodes int) *dsbenchClients {
	n, types := max(nodes, 1)*max(threads, 1), max(len(w.Types()), 1)
	c := &dsbenchClients{w: w, cfg: cfg, threads: max(threads, 1), types: types, allNodes: max(nodes, 1),
		commits: make([]atomic.Int64, n*types), inDoubt: make([]atomic.Int64, n), per: make([]workload.Client, n)}
	if wc, ok := w.(workload.Counter); ok {
		c.countNames = wc.CountNames()
		c.counts = make([]atomic.Int64, n*len(c.countNames))
	}
	return c
}

// statementNames are the workload's timed statements per type on the
// engine named engine (nil: it times none). The procedure form times
// none: its statements run inside the server, one call per transaction.
func (c *dsbenchClients) statementNames(engine string) [][]string {
	if st, ok := c.w.(workload.Statementer); ok && c.cfg.Procedure == nil {
		return st.Statements(engine)
	}
	return nil
}

// waits are the workload's waits between transactions (workload.Waiter),
// nil when it has none.
func (c *dsbenchClients) waits() func(int, *rand.Rand) time.Duration {
	if w, ok := c.w.(workload.Waiter); ok {
		return w.Waits()
	}
	return nil
}

// typeNames are the workload's transaction types by name, in the order
// its clients' Run returns them: the driver keeps figures per type.
func (c *dsbenchClients) typeNames() []string {
	ts := c.w.Types()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// take returns the commits (in all and by type) and the commits in doubt
// counted since the last call, and starts counting again.
func (c *dsbenchClients) take() workload.Commits {
	n := workload.Commits{ByType: make([]int64, c.types)}
	for i := range c.commits {
		k := c.commits[i].Swap(0)
		n.Committed += k
		n.ByType[i%c.types] += k
	}
	for i := range c.inDoubt {
		n.InDoubt += c.inDoubt[i].Swap(0)
	}
	if k := len(c.countNames); k > 0 {
		n.Counts = make([]int64, k)
		for i := range c.counts {
			n.Counts[i%k] += c.counts[i].Swap(0)
		}
	}
	return n
}

// counters are take's counts as a remote agent reports them.
func (c *dsbenchClients) counters() map[string]int64 {
	n := c.take()
	m := map[string]int64{"in_doubt": n.InDoubt}
	for t, k := range n.ByType {
		m[commitsKey(t)] = k
	}
	for i, k := range n.Counts {
		m[countKey(i)] = k
	}
	return m
}

// fromCounters adds a remote agent's counters (node's) to the node's
// first thread.
func (c *dsbenchClients) fromCounters(node int, m map[string]int64) {
	first := c.client(node, 0)
	for t := 0; t < c.types; t++ {
		c.commits[first*c.types+t].Add(m[commitsKey(t)])
	}
	c.inDoubt[first].Add(m["in_doubt"])
	for i := range c.countNames {
		c.counts[first*len(c.countNames)+i].Add(m[countKey(i)])
	}
}

func commitsKey(t int) string { return fmt.Sprintf("commits.%d", t) }
func countKey(i int) string   { return fmt.Sprintf("count.%d", i) }

// setup runs on every new client session: --session, then the thread's
// client's own setup (its prepared statements).
func (c *dsbenchClients) setup(ctx context.Context, s *driver.Session) error {
	if s.Tx == nil {
		return fmt.Errorf("%s sessions cannot run transactions with arguments", s.Engine.Name())
	}
	if err := runSession(ctx, s.Engine, c.session); err != nil {
		return err
	}
	return c.per[c.client(s.Node, s.Thread)].Setup(ctx, s.Tx)
}

// runSession runs a client session's first statements (--session).
func runSession(ctx context.Context, e dbms.Engine, stmts []string) error {
	for _, st := range stmts {
		if _, err := e.Exec(ctx, st); err != nil {
			return fmt.Errorf("--session %q: %w", st, err)
		}
	}
	return nil
}

// newOp is one thread's transaction: its workload client's, counted for
// the check and, when the acknowledged writes are checked, logged with
// the tag it wrote. The driver calls it once per thread before the load
// starts (a scale's acks are armed by then).
func (c *dsbenchClients) newOp(node, thread int) driver.Op {
	idx := c.client(node, thread)
	a := c.acks
	cfg := c.cfg
	cfg.Tagged = a != nil
	cfg.Client, cfg.Clients = node*c.threads+thread, c.allNodes*c.threads
	cfg.Scale = c.scale.Load()
	cfg.Seed = scaleSeed(c.seed, cfg.Scale)
	wc := c.w.NewClient(cfg)
	c.per[idx] = wc
	ws := &workload.Session{Client: idx}
	k := len(c.countNames)
	var counts []atomic.Int64
	if k > 0 {
		ws.Counts = make([]int64, k)
		counts = c.counts[idx*k : (idx+1)*k]
	}
	if a != nil {
		ws.NextSeq = func() int64 { return a.next(idx) }
	}
	return func(ctx context.Context, s *driver.Session) error {
		ws.Tx, ws.Engine, ws.Timer, ws.Rand, ws.Attempt, ws.Scale, ws.Seq, ws.Retries = s.Tx, s.Engine, s, s.Rand, s.Attempt, c.scale.Load(), 0, 0
		typ, err := wc.Run(ctx, ws)
		if errors.Is(err, workload.ErrIdle) {
			return driver.ErrStop
		}
		s.Type, s.Retries = typ, ws.Retries
		for i, v := range ws.Counts {
			if v != 0 {
				counts[i].Add(v)
				ws.Counts[i] = 0
			}
		}
		if err == nil {
			// A type out of range is the workload's bug: clamped, it
			// miscounts one type instead of crashing the load.
			c.commits[idx*c.types+min(max(typ, 0), c.types-1)].Add(1)
		} else if errors.Is(err, workload.ErrCommitInDoubt) {
			c.inDoubt[idx].Add(1)
		}
		if a != nil {
			a.done(idx, ws.Seq, s.Target, err)
		}
		return err
	}
}

// client is the index of a node's thread among the counts: nodes are
// numbered over the whole load, and an agent counts its own node's
// threads only.
func (c *dsbenchClients) client(node, thread int) int {
	return (node*c.threads + thread) % len(c.inDoubt)
}

// opener is the clients' driver.Config.Open: a session on url, or on a
// cluster (sp) the session of client k placed by the spread, which says
// the node it went to. conns is the connections per thread.
func (c *dsbenchClients) opener(url string, sp *spread, conns int) func(context.Context, *driver.Session) (dbms.Engine, error) {
	if sp == nil {
		return func(ctx context.Context, _ *driver.Session) (dbms.Engine, error) { return dbms.Open(ctx, url) }
	}
	writes := c.w.Writes()
	return func(ctx context.Context, s *driver.Session) (dbms.Engine, error) {
		k := (s.Node*c.threads+s.Thread)*max(conns, 1) + s.Conn
		e, node, err := sp.open(ctx, k, writes)
		s.Target = node
		if a := c.acks; a != nil && err != nil {
			// Classed as the driver counts it: mid-run, a node that
			// cannot be reached is a fault, not the user's mistake.
			a.failedOpen(c.client(s.Node, s.Thread), driver.MidRun(err))
		}
		return e, err
	}
}
