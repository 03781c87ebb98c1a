package script

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// Recorder receives the elapsed time of each command a transaction ran:
// script is the index in Program.Scripts, command the index in that
// script's Commands. Commands of \if branches not taken are neither run nor
// recorded; a retried transaction's commands are recorded on every try. It
// is called on the client's goroutine, once per command: keep it cheap (an
// HDR histogram's record).
type Recorder interface {
	Command(script, command int, elapsed time.Duration)
}

// RetryRecorder is a Recorder that also counts retries by the command
// whose failure caused them (pgbench -r's per-command retries); Run finds
// it by type assertion, on the retry path only.
type RetryRecorder interface {
	Recorder
	Retry(script, command int)
}

// Result is one transaction's outcome: which script ran, how many times it
// was retried, and, when it failed in the end, why and where.
type Result struct {
	Script  int
	Retries int
	// Err is nil for a transaction that succeeded (perhaps after
	// retries); else a *RunError, whose class is Class and whose command
	// (its index in the script) is Command.
	Err     error
	Class   dbms.Class
	Command int
}

// Client is one session's runner: its variables, its generators, its
// engine. It is used by one goroutine.
type Client struct {
	p       *Program
	id      int
	vars    expr.Variables
	saved   expr.Variables // the variables at the transaction's start
	rand    expr.PRNG      // the random functions' generator
	choose  *expr.PRNG     // the script choice's
	ectx    expr.Context
	scripts []*compiled

	tq   dbms.TextQuerier
	tx   dbms.Transactor
	pipe dbms.Pipeliner
	// compound, when the engine has it, takes a `\;` compound in one call
	// under the simple protocol, as pgbench sends it.
	compound dbms.CompoundQuerier

	// refs are the variables each statement binds (by statement.id, nil
	// for one not defined), as of the variables' generation refsGen:
	// resolved once, not looked up by name at every execution.
	refs    [][]*expr.Variable
	refsGen []uint64
	// reused from command to command
	args    []any
	res     dbms.TextResult
	timer   *time.Timer
	inPipe  bool
	pending []dbms.PipelineStatement
	txStart int // the command that began the open transaction, for messages
	// textTx: a transaction begun by SQL as written may be open, unknown
	// to the session (control.go's beginsTransaction).
	textTx bool
	// engine is the engine the scripts were compiled for (Setup).
	engine string
	// rerun: every Run keeps its start (saved, start) for Rerun; last is
	// the script the previous Run chose.
	rerun bool
	start *expr.PRNG
	last  int
}

// Clients makes n clients with pgbench's seeding for --random-seed
// (expr.SeedClients) and one client per thread: client i draws its random
// functions from the i-th client generator and chooses scripts with the
// i-th thread's generator, as pgbench -c n -j n does. ids are 0..n-1.
func (p *Program) Clients(n int) []*Client {
	seeds := p.Seeds(n)
	out := make([]*Client, n)
	for i := range out {
		choose := seeds.Base.Split()
		// Each thread also splits off its --rate and log sampling generators.
		seeds.Base.Split()
		seeds.Base.Split()
		out[i] = p.NewClient(i, seeds.Clients[i], &choose, seeds.DefaultSeed)
	}
	return out
}

// Seeds derives the generators of n clients from the run's random seed as
// pgbench does (expr.SeedClients, :default_seed unless -D gives it), for
// a caller that makes its clients with NewClient.
func (p *Program) Seeds(n int) expr.Seeding {
	return expr.SeedClients(p.opts.RandomSeed, n, p.defines("default_seed"))
}

// defines says whether -D gave name.
func (p *Program) defines(name string) bool {
	for _, d := range p.opts.Defines {
		if d.Name == name {
			return true
		}
	}
	return false
}

// NewClient makes client id (its :client_id) with its generator for the
// random functions, the generator its script choice draws from (pgbench
// shares one among a thread's clients; the caller may too, if they run on
// one goroutine) and :default_seed (unused when -D gives it).
func (p *Program) NewClient(id int, rand expr.PRNG, choose *expr.PRNG, defaultSeed int64) *Client {
	c := &Client{p: p, id: id, rand: rand, choose: choose}
	for _, d := range p.opts.Defines {
		c.vars.SetText(d.Name, d.Value) // names checked by ParseDefine
	}
	auto := []struct {
		name string
		v    int64
	}{
		{"client_id", int64(id)},
		{"scale", p.opts.Scale},
		{"default_seed", defaultSeed},
		{"random_seed", int64(p.opts.RandomSeed)},
	}
	for _, a := range auto {
		if _, ok := c.vars.Lookup(a.name); !ok {
			c.vars.SetValue(a.name, expr.Int(a.v))
		}
	}
	c.ectx = expr.Context{Vars: &c.vars, Rand: &c.rand, Debug: p.opts.Debug}
	return c
}

// ID is the client's :client_id as NewClient was given it.
func (c *Client) ID() int { return c.id }

// Variables are the client's variables, for tests and reports.
func (c *Client) Variables() *expr.Variables { return &c.vars }

// Setup makes the client ready to run on e, its own session: the scripts
// compiled for the engine (refused, naming FILE:LINE:COL, when they need
// what the engine lacks) and, under the prepared protocol, every statement
// of every script prepared once on the session (those the engine cannot
// prepare yet, on their first run).
func (c *Client) Setup(ctx context.Context, e dbms.Engine) error {
	if err := c.Bind(e); err != nil {
		return err
	}
	scripts := c.scripts
	if c.p.opts.Protocol != Prepared {
		return nil
	}
	for _, s := range scripts {
		for _, stmts := range s.sql {
			for _, st := range stmts {
				if st.ctl.kind != ctlNone {
					continue
				}
				// A statement the engine cannot prepare yet (its table is
				// one the script creates) is prepared on its first run,
				// as pgbench prepares each command when it first sends it;
				// its error, if it has one still, fails that transaction.
				c.tq.PrepareText(ctx, st.bound)
			}
		}
	}
	return nil
}

// Bind moves the client to e, another session of the engine it was set up
// for (a caller that holds several sessions per client and runs each
// transaction on the next): nothing is prepared now, a prepared
// statement is prepared on the session on its first run there. A session
// of another engine gets its scripts compiled first.
func (c *Client) Bind(e dbms.Engine) error {
	if c.scripts == nil || c.engine != e.Name() {
		scripts, err := c.p.compile(e)
		if err != nil {
			return err
		}
		c.scripts, c.engine = scripts, e.Name()
		c.refs, c.refsGen = nil, nil
	}
	c.tq = e.(dbms.TextQuerier)
	c.tx, _ = e.(dbms.Transactor)
	c.pipe, _ = e.(dbms.Pipeliner)
	c.compound, _ = e.(dbms.CompoundQuerier)
	return nil
}

// KeepStarts makes every Run keep the state its transaction began with
// (its variables and random generator), so that Rerun can run it again:
// for a caller that retries a failed transaction itself, after the
// retries of --max-tries. It costs a copy of the variables per
// transaction.
func (c *Client) KeepStarts() {
	c.rerun = true
	c.start = new(expr.PRNG)
}

// Rerun runs the script of the previous Run again from the state that Run
// began with (KeepStarts must have been called), with its own retries, as
// Run does: the same transaction with the same inputs.
func (c *Client) Rerun(ctx context.Context, rec Recorder) Result {
	c.saved.CopyTo(&c.vars)
	c.rand = *c.start
	return c.run(ctx, c.last, rec)
}

// Run runs one transaction: chooses a script by weight, runs it, and on a
// retryable failure rolls back, restores the variables and the random
// generator as they were at the start and runs it again, up to MaxTries.
// Elapsed times go to rec (nil: none).
func (c *Client) Run(ctx context.Context, rec Recorder) Result {
	si := c.chooseScript()
	c.last = si
	if c.rerun {
		*c.start = c.rand
	}
	return c.run(ctx, si, rec)
}

// run runs script si as one transaction with its retries.
func (c *Client) run(ctx context.Context, si int, rec Recorder) Result {
	res := Result{Script: si}
	retry := c.p.opts.MaxTries > 1
	if retry || c.rerun {
		c.vars.CopyTo(&c.saved)
	}
	start := c.rand
	var began time.Time
	if c.p.opts.LatencyLimit > 0 {
		began = time.Now() // only --latency-limit reads it
	}
	for try := 1; ; try++ {
		err := c.runScript(ctx, si, rec)
		if err == nil {
			return res
		}
		class := dbms.Classify(err)
		if rerr := c.abandon(ctx); rerr != nil && class != dbms.ConnectionLost {
			err = fmt.Errorf("%w (and the rollback failed: %v)", err, rerr)
			if rc := dbms.Classify(rerr); rc.SessionFault() {
				// The session is what failed now: the caller must know
				// to reconnect.
				class, err = rc, dbms.Wrap(rc, err)
			}
		}
		cmd := -1
		var re *RunError
		if errors.As(err, &re) {
			cmd = re.Command
		}
		if retry && class.Retryable() && try < c.p.opts.MaxTries && ctx.Err() == nil && c.inTime(began) {
			res.Retries++
			if rr, ok := rec.(RetryRecorder); ok {
				rr.Retry(si, cmd)
			}
			c.saved.CopyTo(&c.vars)
			c.rand = start
			continue
		}
		res.Err, res.Class, res.Command = err, class, cmd
		return res
	}
}

// inTime says whether a transaction begun at began may still be retried
// under Options.LatencyLimit.
func (c *Client) inTime(began time.Time) bool {
	return c.p.opts.LatencyLimit <= 0 || time.Since(began) <= c.p.opts.LatencyLimit
}

// chooseScript draws a script by weight as pgbench's chooseScript does.
func (c *Client) chooseScript() int {
	if len(c.scripts) == 1 {
		return 0
	}
	w := c.choose.Rand(0, c.p.total-1)
	i := 0
	for {
		w -= int64(c.p.sources[i].Script.Weight)
		i++
		if w < 0 {
			return i - 1
		}
	}
}

// abandon rolls back what a failed try left open, also when ctx has ended
// (the run's end must not leave a transaction open on the session).
func (c *Client) abandon(ctx context.Context) error {
	c.inPipe, c.pending = false, c.pending[:0]
	textTx := c.textTx
	c.textTx = false
	if c.tx == nil || !c.tq.InTransaction() && !textTx {
		return nil
	}
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
	}
	if !c.tq.InTransaction() {
		// A ROLLBACK with none open is an error on some engines, and the
		// failure may have ended the transaction already: what it says
		// does not matter.
		c.tq.QueryText(ctx, "ROLLBACK", nil, false, nil)
		return nil
	}
	return c.tx.Rollback(ctx)
}

// runScript runs script si once, walking the \if jumps.
func (c *Client) runScript(ctx context.Context, si int, rec Recorder) error {
	s := c.scripts[si]
	cmds := s.script.Commands
	c.ectx.Script = si
	// One clock reading per command: a command's time runs from the end
	// of the one before (the loop's own few nanoseconds included), which
	// halves the readings, a tenth of the client's CPU on an embedded
	// engine. And only the monotonic clock after the first: time.Since of
	// a time that has a monotonic reading reads that clock alone, where
	// time.Now reads the wall clock too.
	var start time.Time
	var last time.Duration
	if rec != nil {
		start = time.Now()
	}
	for pc := 0; pc < len(cmds); {
		c.ectx.Command = pc + 1
		next, err := c.command(ctx, s, pc)
		if err != nil {
			return c.fail(s, pc, err)
		}
		if rec != nil {
			now := time.Since(start)
			rec.Command(si, pc, now-last)
			last = now
		}
		pc = next
	}
	if c.tq.InTransaction() || c.textTx {
		return c.fail(s, c.txStart, dbms.Wrap(dbms.Invalid, errOpenTransaction))
	}
	return nil
}

// fail places err at command pc of s.
func (c *Client) fail(s *compiled, pc int, err error) error {
	var re *RunError
	if errors.As(err, &re) {
		return err
	}
	cmd := &s.script.Commands[pc]
	return &RunError{Script: s.script.Name, Command: pc, Pos: cmd.Pos, Text: cmd.Text, Err: err}
}

// command runs command pc and returns the index of the next one.
func (c *Client) command(ctx context.Context, s *compiled, pc int) (int, error) {
	cmd := &s.script.Commands[pc]
	switch cmd.Kind {
	case parse.KindSQL:
		return pc + 1, c.sql(ctx, s, pc)
	case parse.KindSet:
		v, err := cmd.Expr.(*expr.Expr).Eval(&c.ectx)
		if err != nil {
			return 0, dbms.Wrap(dbms.Invalid, err)
		}
		if err := c.set(s.setID[pc], cmd.Var, v); err != nil {
			return 0, dbms.Wrap(dbms.Invalid, err)
		}
	case parse.KindIf:
		return s.script.Branch(pc, c.truth)
	case parse.KindSleep:
		return pc + 1, c.sleep(ctx, cmd.Sleep)
	case parse.KindShell, parse.KindSetShell:
		return pc + 1, c.shell(ctx, cmd)
	case parse.KindStartPipeline:
		c.inPipe, c.pending = true, c.pending[:0]
	case parse.KindSyncPipeline:
		if n := len(c.pending); n > 0 {
			c.pending[n-1].Sync = true
		}
	case parse.KindEndPipeline:
		c.inPipe = false
		err := c.pipe.Pipeline(ctx, c.pending)
		c.pending = c.pending[:0]
		return pc + 1, err
	}
	return s.script.Next(pc), nil
}

// truth evaluates the condition of an \if or \elif.
func (c *Client) truth(cmd *parse.Command) (bool, error) {
	v, err := cmd.Expr.(*expr.Expr).Eval(&c.ectx)
	if err != nil {
		return false, dbms.Wrap(dbms.Invalid, err)
	}
	return v.Truth(), nil
}
