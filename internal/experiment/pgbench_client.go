package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/pgbench"
	"github.com/dbgauge/dbgauge/internal/workload/script"
)

// pgbClient is one pgbench client: a script runner on one driver thread
// (one session), and what it accumulates the way pgbench does. The
// counts a -P line reads are under mu (taken once per transaction, by the
// client, and once per report, by the progress line: never contended in
// practice); the per-script and per-command figures are the client's
// alone until the run has ended.
type pgbClient struct {
	c    *script.Client
	run  *pgbRun
	sess *driver.Session // the session of the transaction running, for the Recorder
	o    *pgbench.Options
	// rec is the client itself under -r, else nil: like pgbench, a run
	// times each command only when asked to (it costs a clock reading
	// and a histogram per command).
	rec script.Recorder
	// stderr receives the abort message; shared by the clients, so the
	// message is written in one call.
	stderr io.Writer

	mu   sync.Mutex
	live pgbench.Snapshot
	late int64

	scripts []pgbench.ScriptTotals
	// connTotal is the time -C's connections took.
	connTotal time.Duration
	aborted   bool
}

func newPgbClient(run *pgbRun, c *script.Client) *pgbClient {
	o := run.o
	p := &pgbClient{c: c, run: run, o: o, stderr: run.stderr, scripts: make([]pgbench.ScriptTotals, len(o.Scripts))}
	for i, s := range o.Scripts {
		p.scripts[i].Commands = make([]pgbench.CommandTotals, len(s.Commands))
	}
	if o.PerCommand {
		p.rec = p
	}
	return p
}

// op is the client's driver.Op: one pgbench transaction. Under -R with -L
// a transaction already later than the limit is skipped, as pgbench skips
// it; a script's retries happen inside Run; a transaction that failed
// after its tries goes to the driver as a failed trial; any other error
// aborts the client, as it aborts a pgbench client.
func (p *pgbClient) op(ctx context.Context, s *driver.Session) error {
	if p.aborted {
		return driver.ErrStop
	}
	lag := s.Behind
	if p.o.Rate > 0 && p.o.LatencyLimit > 0 && lag > p.o.LatencyLimit {
		p.mu.Lock()
		p.live.Skipped++
		p.mu.Unlock()
		p.scripts[0].Skipped++ // pgbench counts a skip for the first script
		return driver.ErrSkip
	}
	p.sess = s
	if p.o.MaxTries == 0 && p.o.Duration > 0 {
		// No limit on the tries but the run's time: a transaction that
		// keeps failing stops retrying when the run ends.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.run.started.Add(p.o.Duration))
		defer cancel()
	}
	start := time.Now()
	res := p.c.Run(ctx, p.rec)
	latency := time.Since(start) + lag
	s.Type, s.Retries = res.Script, res.Retries
	st := &p.scripts[res.Script]
	var c pgbench.Counts
	c.Retries = int64(res.Retries)
	if res.Retries > 0 {
		c.Retried = 1
	}
	switch {
	case res.Err == nil:
		c.Processed = 1
		st.Latency.Add(latency)
	case res.Class == dbms.Serialization || res.Class == dbms.Deadlock:
		if res.Class == dbms.Serialization {
			c.SerializationFailures = 1
		} else {
			c.DeadlockFailures = 1
		}
		if res.Command >= 0 && res.Command < len(st.Commands) {
			st.Commands[res.Command].Failures++
		}
	case ctx.Err() != nil:
		return res.Err
	default:
		p.abort(res)
		return driver.ErrStop
	}
	addCounts(&st.Counts, c)
	p.mu.Lock()
	addCounts(&p.live.Counts, c)
	if c.Processed > 0 {
		p.live.Latency.Add(latency)
		if p.o.Rate > 0 {
			p.live.Lag.Add(lag)
		}
		if p.o.LatencyLimit > 0 && latency > p.o.LatencyLimit {
			p.late++
		}
	}
	p.mu.Unlock()
	return res.Err
}

// abort writes pgbench's line for a client that stopped on an error.
func (p *pgbClient) abort(res script.Result) {
	p.aborted = true
	var re *script.RunError
	msg := res.Err.Error()
	cmd := res.Command
	if errors.As(res.Err, &re) {
		msg, cmd = re.Err.Error(), re.Command
	}
	fmt.Fprintf(p.stderr, "pgbench: error: client %d script %d aborted in command %d query 0: %s\n", p.c.ID(), res.Script, cmd, msg)
}

// Command is the script.Recorder (under -r): a command's time goes to
// -r's figures and, as the statement of its script, to the driver's.
func (p *pgbClient) Command(script, command int, elapsed time.Duration) {
	p.scripts[script].Commands[command].Latency.Add(elapsed)
	p.sess.Statement(command, elapsed)
}

// Retry counts a retry by the command whose failure caused it (-r).
func (p *pgbClient) Retry(script, command int) {
	p.scripts[script].Commands[command].Retries++
}

// snapshot is the client's counts now, for a -P line.
func (p *pgbClient) snapshot() pgbench.Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live
}

func addCounts(c *pgbench.Counts, o pgbench.Counts) {
	c.Processed += o.Processed
	c.Skipped += o.Skipped
	c.SerializationFailures += o.SerializationFailures
	c.DeadlockFailures += o.DeadlockFailures
	c.Retried += o.Retried
	c.Retries += o.Retries
}

var _ script.RetryRecorder = (*pgbClient)(nil)
