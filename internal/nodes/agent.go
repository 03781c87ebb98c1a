package nodes

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// AgentOptions configure an agent.
type AgentOptions struct {
	Dial Dial
	// Name is the agent's name (unique among the master's agents).
	Name    string
	Version string
	// Wait is how long the agent waits for its master to answer.
	Wait time.Duration
	// Dir keeps the agent's own interval logs, the durable copy of what
	// it measured ("" : none).
	Dir string
	Env Env
	// Log prints a line of progress (nil: silent).
	Log func(format string, args ...any)
	// config is the configuration hash the agent gives ("": its own,
	// ConfigHash; tests give another).
	config string
}

// ErrRefused is an agent refused by its master (another version, a name
// taken, the master full): starting it again will not help.
var ErrRefused = errors.New("refused by the master")

// ErrCannotJoin is an agent that cannot talk to its master as set up (a
// token it refuses, a certificate the agent does not trust): trying again
// will not help either.
var ErrCannotJoin = errors.New("cannot join the master")

// ErrMasterSilent ends an agent whose master went silent.
var ErrMasterSilent = errors.New("the master went silent")

// agentRun is one agent's life.
type agentRun struct {
	opt AgentOptions
	nc  *nats.Conn
	run string
	// lastMaster is when the master was last heard (Unix nanoseconds).
	lastMaster atomic.Int64
	jobs       chan job
	aborts     chan abort
	ends       chan end
	// live counts of the running cycle, for the heartbeats; cycle is
	// that cycle (set after the counts are reset, so that a heartbeat
	// never gives the counts of one cycle as another's).
	committed, failed atomic.Int64
	// types are the commits per transaction type (a workload of
	// several), as the last Progress gave them; nil otherwise.
	types atomic.Pointer[[]int64]
	cycle atomic.Pointer[cyclePos]
}

// cyclePos is a cycle of a job.
type cyclePos struct{ job, cycle int }

// Serve runs an agent until its master ends the run (nil), refuses it
// (ErrRefused), goes silent (ErrMasterSilent) or ctx ends.
func Serve(ctx context.Context, o AgentOptions) error {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.config == "" {
		o.config = ConfigHash()
	}
	a := &agentRun{opt: o, jobs: make(chan job, 4), aborts: make(chan abort, 4), ends: make(chan end, 1)}
	deadline := time.Now().Add(o.Wait)
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if err := a.connect(wctx); err != nil {
		return err
	}
	defer a.nc.Close()
	if err := a.hello(wctx); err != nil {
		return err
	}
	return a.serve(ctx)
}

// connect dials NATS until it answers or the wait runs out.
func (a *agentRun) connect(ctx context.Context) error {
	said := false
	for {
		nc, err := a.opt.Dial.connect()
		if err == nil {
			a.nc = nc
			return nil
		}
		if why := setupFault(err); why != "" {
			return fmt.Errorf("%w: %s", ErrCannotJoin, why)
		}
		if !said {
			a.opt.Log("waiting for the master at %s (%v)", a.opt.Dial.URL, err)
			said = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no master at %s within --wait %v: %w", a.opt.Dial.URL, a.opt.Wait, err)
		case <-time.After(time.Second):
		}
	}
}

// setupFault says why a connection failed for good, "" when trying again
// may help: a master that refuses the token, or a certificate the agent
// does not trust, will do so at every try.
func setupFault(err error) string {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var host x509.HostnameError
	switch {
	case errors.Is(err, nats.ErrAuthorization):
		return "the master's NATS refused this agent's token: give the master's (--token or $DBGAUGE_TOKEN)"
	case errors.As(err, &unknown), errors.As(err, &invalid), errors.As(err, &host):
		return fmt.Sprintf("the master's TLS certificate is not trusted (%v): name its authority with --tls-ca", err)
	}
	return ""
}

// hello registers with the master, asking until it answers.
func (a *agentRun) hello(ctx context.Context) error {
	host, _ := os.Hostname()
	h := hello{Name: a.opt.Name, Host: host, Version: a.opt.Version, Config: a.opt.config, Cores: runtime.NumCPU(), Memory: memory(), PID: os.Getpid()}
	b, _ := json.Marshal(h)
	// Subscribed before the hello: the master may send a job at once.
	for subj, h := range map[string]nats.MsgHandler{
		subjMasterBt: func(*nats.Msg) { a.heard() },
		subjAbort: func(m *nats.Msg) {
			var ab abort
			if json.Unmarshal(m.Data, &ab) == nil {
				a.heard()
				select {
				case a.aborts <- ab:
				default: // aborts of older jobs fill it: serve drops those
				}
			}
		},
		subjEnd: func(m *nats.Msg) {
			var e end
			_ = json.Unmarshal(m.Data, &e)
			select {
			case a.ends <- e:
			default:
			}
		},
		agentSubject(a.opt.Name, "job"): a.onJob,
	} {
		if _, err := a.nc.Subscribe(subj, h); err != nil {
			return fmt.Errorf("subscribe %s: %w", subj, err)
		}
	}
	for {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		msg, err := a.nc.RequestWithContext(rctx, subjHello, b)
		cancel()
		if err == nil {
			var w welcome
			if err := json.Unmarshal(msg.Data, &w); err != nil {
				return fmt.Errorf("unreadable answer from the master: %w", err)
			}
			if w.Refused != "" {
				return fmt.Errorf("%w: %s", ErrRefused, w.Refused)
			}
			if err := checkRunName(w.Run); err != nil {
				return fmt.Errorf("%w: the master at %s sent a %v: run the same dbgauge build on the master and every agent", ErrCannotJoin, a.opt.Dial.URL, err)
			}
			a.heard()
			a.run = w.Run
			a.opt.Log("registered with the master at %s as %s", a.opt.Dial.URL, a.opt.Name)
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("the master at %s did not answer within --wait %v", a.opt.Dial.URL, a.opt.Wait)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func (a *agentRun) heard() { a.lastMaster.Store(time.Now().UnixNano()) }

// masterSilent is how long the master has been silent, if MasterSilent
// or more (0: it was heard since).
func (a *agentRun) masterSilent() time.Duration {
	if silent := time.Since(time.Unix(0, a.lastMaster.Load())); silent >= MasterSilent {
		return silent
	}
	return 0
}

// onJob takes a job: it answers once the load is built, and runs it in
// serve's goroutine.
func (a *agentRun) onJob(msg *nats.Msg) {
	a.heard()
	var j job
	if err := json.Unmarshal(msg.Data, &j); err != nil {
		respond(msg, reply{Err: "unreadable job: " + err.Error()})
		return
	}
	if _, err := builder(j.Kind); err != nil {
		respond(msg, reply{Err: err.Error()})
		return
	}
	select {
	case a.jobs <- j:
		respond(msg, reply{})
	default:
		respond(msg, reply{Err: "busy with another job"})
	}
}

// serve runs jobs until the run ends, sending heartbeats every second and
// stopping the load when the master has been silent for MasterSilent.
func (a *agentRun) serve(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var jobCancel context.CancelCauseFunc
	var jobID int
	jobDone := make(chan struct{}, 1)
	tick := time.NewTicker(beat)
	defer tick.Stop()
	var confirm <-chan time.Time // a silence found, to be confirmed
	seen := map[int]bool{}
	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case e := <-a.ends:
			if jobCancel != nil {
				jobCancel(fmt.Errorf("%w: %s", errMasterEnded, e.Reason))
			}
			// The job's last lines (the cycle the end cut short) come
			// before this one, which is the agent's last word: it ran
			// after them when the job was slow to stop (seen under load).
			wg.Wait()
			if e.Reason != "" {
				a.opt.Log("the master ended the run: %s", e.Reason)
			} else {
				a.opt.Log("the master ended the run")
			}
			return nil
		case ab := <-a.aborts:
			if jobCancel != nil && ab.Job == jobID {
				a.opt.Log("the master stopped the load: %s", ab.Reason)
				jobCancel(fmt.Errorf("stopped by the master: %s", ab.Reason))
			}
		case j := <-a.jobs:
			if seen[j.ID] {
				continue // its answer was lost and it came again
			}
			seen[j.ID] = true
			jctx, jc := context.WithCancelCause(ctx)
			jobCancel, jobID = jc, j.ID
			wg.Go(func() {
				a.runJob(jctx, j)
				jc(nil)
				jobDone <- struct{}{}
			})
		case <-jobDone:
			jobCancel = nil
		case <-tick.C:
			h := heartbeat{Name: a.opt.Name}
			if pos := a.cycle.Load(); pos != nil {
				h.Job, h.Cycle = pos.job, pos.cycle
			}
			h.Committed, h.Failed = a.committed.Load(), a.failed.Load()
			if ts := a.types.Load(); ts != nil {
				h.Types = *ts
			}
			b, _ := json.Marshal(h)
			_ = a.nc.Publish(subjBeat, b)
			if confirm == nil && a.masterSilent() > 0 {
				// An agent that was stopped (SIGSTOP) or starved finds
				// the master's messages waiting in its socket: a moment
				// to read them before it calls the master silent.
				confirm = time.After(beat / 4)
			}
		case <-confirm:
			confirm = nil
			if silent := a.masterSilent(); silent > 0 {
				err := fmt.Errorf("%w: no word from it for %.0f s, so the load stopped", ErrMasterSilent, silent.Seconds())
				cancel(err)
				if jobCancel != nil {
					jobCancel(err)
				}
				return err
			}
		}
	}
}

// memory is the machine's memory in bytes (0 if unknown).
func memory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	var kb int64
	if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err != nil {
		return 0
	}
	return kb * 1024
}
