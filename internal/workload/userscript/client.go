package userscript

import (
	"context"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/script"
	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
)

// programKey is what makes one scale's program: :scale, the seed of the
// scale's inputs, and the number of clients of the whole load (pgbench
// derives every client's generators, and :default_seed after them, from
// the seed in client order), and the isolation level of the scripts'
// BEGIN (the sweep's --isolation).
type programKey struct {
	scale     int64
	seed      uint64
	clients   int
	isolation dbms.Isolation
}

// program is the scripts ready for one scale: the runtime's program and
// each client's generators, derived once.
type program struct {
	p           *script.Program
	rand        []expr.PRNG // per client, its random functions'
	choose      []expr.PRNG // per client, its script choice's
	defaultSeed int64
}

// programFor is the program of k, made on first use; its clients share it
// (the runtime's program is read-only but for its compile cache, which
// has a lock of its own).
func (w *Workload) programFor(k programKey) (*program, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if pr, ok := w.programs[k]; ok {
		return pr, nil
	}
	opts := w.programOptions(w.protocol, w.defines, w.opts, k.scale, k.seed)
	opts.Isolation = k.isolation
	p, err := script.NewProgram(w.sources, opts)
	if err != nil {
		return nil, err
	}
	seeds := p.Seeds(k.clients)
	pr := &program{p: p, rand: seeds.Clients, choose: make([]expr.PRNG, k.clients), defaultSeed: seeds.DefaultSeed}
	// Each client is a thread of its own, as pgbench -c n -j n splits
	// a thread's script choice (then its rate and log generators) off
	// what is left.
	for i := range pr.choose {
		pr.choose[i] = seeds.Base.Split()
		seeds.Base.Split()
		seeds.Base.Split()
	}
	if w.programs == nil {
		w.programs = map[programKey]*program{}
	}
	w.programs[k] = pr
	return pr, nil
}

// NewClient is one client of the load: its :client_id is its number over
// the whole load, its generators the ones pgbench would give that client
// for the scale's seed.
func (w *Workload) NewClient(cfg workload.ClientConfig) workload.Client {
	return &client{w: w, cfg: cfg}
}

// client runs the scripts for one driver thread: on a transaction's first
// attempt a script chosen by weight, run with the runtime's retries
// (--max-tries); on the driver's retry (--retry) the same script from the
// same state.
type client struct {
	w     *Workload
	cfg   workload.ClientConfig
	sc    *script.Client
	bound dbms.Engine // the session sc runs on
	timer workload.StatementTimer
}

// start makes the runtime's client, once.
func (c *client) start() error {
	if c.sc != nil {
		return nil
	}
	n := max(c.cfg.Clients, c.cfg.Client+1, 1)
	pr, err := c.w.programFor(programKey{scale: max(c.cfg.Scale, 1), seed: c.cfg.Seed, clients: n, isolation: c.cfg.Isolation})
	if err != nil {
		return err
	}
	id := max(c.cfg.Client, 0)
	choose := pr.choose[id]
	c.sc = pr.p.NewClient(id, pr.rand[id], &choose, pr.defaultSeed)
	// The driver's own retry (--retry) reruns a transaction from its
	// start: the variables are kept at every start for it, a copy per
	// transaction that a run without it does not pay.
	if c.cfg.Retry {
		c.sc.KeepStarts()
	}
	return nil
}

func (c *client) Setup(ctx context.Context, tx dbms.Transactor) error {
	e, ok := tx.(dbms.Engine)
	if !ok {
		return fmt.Errorf("the script workload needs the session's engine, not only its transactions")
	}
	if err := c.start(); err != nil {
		return err
	}
	c.bound = e
	return c.sc.Setup(ctx, e)
}

func (c *client) Run(ctx context.Context, s *workload.Session) (int, error) {
	if err := c.start(); err != nil {
		return 0, err
	}
	if s.Engine != c.bound {
		// The thread's next connection (--connections): the same client.
		if err := c.sc.Bind(s.Engine); err != nil {
			return 0, err
		}
		c.bound = s.Engine
	}
	c.timer = s.Timer
	var res script.Result
	if s.Attempt == 0 || !c.cfg.Retry {
		res = c.sc.Run(ctx, c)
	} else {
		res = c.sc.Rerun(ctx, c)
	}
	s.Retries = res.Retries
	return res.Script, res.Err
}

// Command hands a command's time to the session's timer: the statement
// of the type is the script's command.
func (c *client) Command(_, command int, d time.Duration) {
	if c.timer != nil {
		c.timer.Statement(command, d)
	}
}
