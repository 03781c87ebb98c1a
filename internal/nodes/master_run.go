package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Job is one load the master hands its agents (one scale of a sweep).
type Job struct {
	// Kind names the registered Builder; Payload is its input.
	Kind    string
	Payload any
	// Label names the job in events and file names ("scale 10").
	Label string
	// Counters, if set, receives each node's counters after each cycle,
	// before Config.BetweenCycles runs.
	Counters func(node int, c map[string]int64)
	// NodeLost, if set, is told of a node lost during a cycle (with
	// --tolerate-node-loss), before Config.BetweenCycles runs.
	NodeLost func(node int)
}

// Outcome is what Run measured: the merged result, as driver.Run returns
// it, and per cycle and per node what each node did.
type Outcome struct {
	*driver.Result
	// Nodes holds, per completed cycle, each node's share.
	Nodes []results.CycleNodes
	// PerNode holds each node's own cycles (in node order), with its
	// histograms: the nodes' interval logs.
	PerNode []*driver.Result
	// CPUSeconds holds each node's CPU over its completed cycles (in node
	// order): the agent process's user + system time.
	CPUSeconds []float64
}

// jobState is the job in progress; under Master.mu.
type jobState struct {
	id    int
	label string
	// cycle is the cycle being prepared or run.
	cycle int
	// readies holds, per agent, its ready request for cycle (answered
	// with the start once every agent is ready).
	readies   map[string]*nats.Msg
	announced map[int]start
	reports   map[int]map[string]*report
	finished  map[string]finished
	// abort, once set, answers every ready.
	abort string
	// lostIn names the agents lost during the job, with the cycle (0:
	// before the first cycle, or before the job).
	lostIn map[string]int
	// missingIn names, per cycle, the agents found missing while it ran.
	missingIn map[int][]string
	// over is set once Run returned: the master is between jobs.
	over bool
	// took names the agents that accepted the job: only they have
	// sessions to close.
	took map[string]bool
}

// ErrNodeLost is returned by Run when an agent was lost and the master
// does not tolerate it.
var ErrNodeLost = errors.New("load node lost")

// Run hands job to every live agent and runs cfg's cycles across them:
// each cycle starts at a time the master announces once all agents are
// ready; their reports are merged into one CycleResult, and
// cfg.BetweenCycles runs on the master while no load runs. From cfg it
// takes Threads, Connections, Cycles, Duration, Rate, Poisson, Retry,
// Reconnect, BackoffCap, GiveUp, Seed, BetweenCycles and Progress; Open,
// Setup and NewOp are the agents' (their Builder's). Like driver.Run it
// returns what was measured even when it fails.
func (m *Master) Run(ctx context.Context, jb Job, cfg driver.Config) (*Outcome, error) {
	payload, err := json.Marshal(jb.Payload)
	if err != nil {
		return nil, fmt.Errorf("job payload: %w", err)
	}
	m.mu.Lock()
	id := 1
	if m.job != nil {
		id = m.job.id + 1
	}
	js := &jobState{id: id, label: jb.Label, readies: map[string]*nats.Msg{}, announced: map[int]start{},
		reports: map[int]map[string]*report{}, finished: map[string]finished{}, lostIn: map[string]int{}, took: map[string]bool{},
		missingIn: map[int][]string{}}
	m.job = js
	nodes := m.nodes
	// An agent lost between jobs (while the master populated) counts as
	// lost before this one.
	lostErr := m.lostCheck(js, 0)
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		js.over = true
		m.mu.Unlock()
	}()
	out := &Outcome{Result: driver.NewResult(cfg.Rate > 0), CPUSeconds: make([]float64, len(nodes))}
	for range nodes {
		out.PerNode = append(out.PerNode, driver.NewResult(cfg.Rate > 0))
	}
	if lostErr != nil {
		return m.fail(out, 0, lostErr)
	}
	for _, a := range nodes {
		j := job{ID: id, Kind: jb.Kind, Payload: payload, Node: a.info.Node, Nodes: len(nodes),
			Threads: cfg.Threads, Conns: cfg.Connections, Cycles: cfg.Cycles, DurationNS: int64(cfg.Duration),
			Rate: cfg.Rate, Poisson: cfg.Poisson, Retry: cfg.Retry, Reconnect: cfg.Reconnect,
			BackoffCapNS: int64(cfg.BackoffCap), GiveUpNS: int64(cfg.GiveUp), Seed: cfg.Seed, Label: jb.Label}
		if err := m.sendJob(ctx, js, a, j); err != nil {
			return m.fail(out, 0, err)
		}
	}
	for i := 1; i <= cfg.Cycles; i++ {
		at, err := m.startCycle(ctx, js, i)
		if err != nil {
			return m.fail(out, i, err)
		}
		stopProgress := m.progress(cfg, i, at)
		reps, err := m.collect(ctx, js, i)
		stopProgress()
		if err != nil {
			return m.fail(out, i, err)
		}
		c, cn, err := m.merge(js, i, at, cfg, reps, out)
		if err != nil {
			return m.fail(out, i, err)
		}
		out.Add(c)
		out.Nodes = append(out.Nodes, cn)
		if jb.Counters != nil {
			for _, a := range nodes {
				if r := reps[a.info.Name]; r != nil {
					jb.Counters(a.info.Node, r.Counters)
				}
			}
		}
		if jb.NodeLost != nil {
			for _, n := range cn.Nodes {
				if n.Lost {
					jb.NodeLost(n.Node)
				}
			}
		}
		if cfg.BetweenCycles != nil {
			if err := cfg.BetweenCycles(ctx, i, *c); err != nil {
				return m.fail(out, 0, fmt.Errorf("after cycle %d: %w", i, err))
			}
		}
	}
	return out, m.awaitFinished(ctx, js)
}

// sendJob asks agent a to take job j, until it answers, or it is lost:
// then the job goes on without it if the master tolerates the loss.
func (m *Master) sendJob(ctx context.Context, js *jobState, a *agent, j job) error {
	b, _ := json.Marshal(j)
	for {
		m.mu.Lock()
		lost := a.lost
		var err error
		if lost {
			err = m.lostCheck(js, 0)
		}
		m.mu.Unlock()
		if lost {
			return err
		}
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		msg, err := m.nc.RequestWithContext(rctx, agentSubject(a.info.Name, "job"), b)
		cancel()
		if err == nil {
			var r reply
			if err := json.Unmarshal(msg.Data, &r); err != nil {
				return fmt.Errorf("agent %s: unreadable answer to its job: %w", a.info.Name, err)
			}
			if r.Err != "" {
				return fmt.Errorf("agent %s cannot run the load: %s", a.info.Name, r.Err)
			}
			m.mu.Lock()
			js.took[a.info.Name] = true
			m.mu.Unlock()
			return nil
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// live is the job's agents not lost; under mu.
func (m *Master) live() []*agent {
	var out []*agent
	for _, a := range m.nodes {
		if !a.lost {
			out = append(out, a)
		}
	}
	return out
}

// lostCheck is called under mu while waiting for the agents in cycle
// (0: before the job's first cycle): a loss ends the run unless
// tolerated, then the lost agent is no longer waited for.
func (m *Master) lostCheck(js *jobState, cycle int) error {
	for _, a := range m.nodes {
		if !a.lost {
			continue
		}
		if _, seen := js.lostIn[a.info.Name]; seen {
			continue
		}
		js.lostIn[a.info.Name] = cycle
		if !m.opt.TolerateLoss {
			when := fmt.Sprintf("during %s cycle %d; the cycle is not counted", js.label, cycle)
			if cycle == 0 {
				when = fmt.Sprintf("before %s started", js.label)
			}
			return fmt.Errorf("%w: agent %s (node %s) sent no heartbeat for %v %s (--tolerate-node-loss goes on with the others)",
				ErrNodeLost, a.info.Name, results.NodeNumber(a.info.Node), Lost, when)
		}
	}
	if len(m.live()) == 0 {
		return fmt.Errorf("%w: every agent is lost", ErrNodeLost)
	}
	return nil
}

// startCycle waits until every live agent is ready for cycle i, then
// answers them all with the start: now plus max(250 ms, 10 x the largest
// round trip), on the master's clock.
func (m *Master) startCycle(ctx context.Context, js *jobState, i int) (time.Time, error) {
	m.mu.Lock()
	js.cycle = i
	m.mu.Unlock()
	if err := m.awaitLive(ctx, js, i, func(name string) bool { return js.readies[name] != nil }); err != nil {
		return time.Time{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	lead := 250 * time.Millisecond
	for _, a := range m.live() {
		lead = max(lead, 10*2*a.offset.Error)
	}
	at := time.Now().Add(lead)
	st := start{Cycle: i, AtNS: at.UnixNano()}
	js.announced[i] = st
	for name, msg := range js.readies {
		respond(msg, st)
		delete(js.readies, name)
	}
	return at, nil
}

// agentFailed is an error when an agent's load ended early; under mu.
func (m *Master) agentFailed(js *jobState) error {
	for name, f := range js.finished {
		if f.Err != "" {
			return fmt.Errorf("agent %s: %s", name, f.Err)
		}
	}
	return nil
}

func (m *Master) onReady(msg *nats.Msg) {
	var r ready
	if json.Unmarshal(msg.Data, &r) != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.heard(r.Name)
	js := m.job
	if a == nil || js == nil || r.Job != js.id {
		respond(msg, start{Abort: "not a job of this master's, or the agent was lost"})
		return
	}
	a.offset = Offset{Offset: time.Duration(r.OffsetNS), Error: time.Duration(r.ErrorNS)}
	a.info.ClockOffsetMS, a.info.ClockErrorMS = float64(r.OffsetNS)/1e6, float64(r.ErrorNS)/1e6
	switch st, ok := js.announced[r.Cycle]; {
	case js.abort != "":
		respond(msg, start{Abort: js.abort})
	case ok:
		respond(msg, st) // its first answer was lost
	default:
		js.readies[r.Name] = msg
		m.signal()
	}
}

// collect waits for every live agent's report of cycle i.
func (m *Master) collect(ctx context.Context, js *jobState, i int) (map[string]*report, error) {
	err := m.awaitLive(ctx, js, i, func(name string) bool { return js.reports[i][name] != nil })
	m.mu.Lock()
	defer m.mu.Unlock()
	return js.reports[i], err
}

// awaitLive waits until has says yes of every live agent during cycle i;
// an agent lost (unless tolerated) or whose load failed ends the wait.
// has is called under mu.
func (m *Master) awaitLive(ctx context.Context, js *jobState, i int, has func(name string) bool) error {
	return m.await(ctx, func() (bool, error) {
		if err := m.lostCheck(js, i); err != nil {
			return false, err
		}
		if err := m.agentFailed(js); err != nil {
			return false, err
		}
		for _, a := range m.live() {
			if !has(a.info.Name) {
				return false, nil
			}
		}
		return true, nil
	})
}

func (m *Master) onReport(msg *nats.Msg) {
	var r report
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		respond(msg, reply{Err: "unreadable report: " + err.Error()})
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.heard(r.Name)
	js := m.job
	switch {
	case a == nil:
		respond(msg, reply{Err: "the agent was lost: its report is not counted"})
	case js == nil || r.Job != js.id:
		respond(msg, reply{Err: "not the job running"})
	default:
		if js.reports[r.Cycle] == nil {
			js.reports[r.Cycle] = map[string]*report{}
		}
		if js.reports[r.Cycle][r.Name] == nil { // a report sent again counts once
			js.reports[r.Cycle][r.Name] = &r
			m.signal()
		}
		respond(msg, reply{})
	}
}

func (m *Master) onFinished(msg *nats.Msg) {
	var f finished
	if json.Unmarshal(msg.Data, &f) != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.heard(f.Name)
	if js := m.job; js != nil && f.Job == js.id {
		if _, dup := js.finished[f.Name]; !dup {
			js.finished[f.Name] = f
			m.signal()
		}
	}
	respond(msg, reply{})
}

// awaitFinished waits until every live agent that took the job closed
// its sessions (the master repopulates the database next).
func (m *Master) awaitFinished(ctx context.Context, js *jobState) error {
	return m.await(ctx, func() (bool, error) {
		for _, a := range m.live() {
			if !js.took[a.info.Name] {
				continue
			}
			f, ok := js.finished[a.info.Name]
			if !ok {
				return false, nil
			}
			if f.Err != "" {
				return false, fmt.Errorf("agent %s: %s", a.info.Name, f.Err)
			}
		}
		return true, nil
	})
}

// fail stops every agent's load of the job and returns what was measured,
// cycle (0: none) being the cycle cut short.
func (m *Master) fail(out *Outcome, cycle int, err error) (*Outcome, error) {
	m.mu.Lock()
	js := m.job
	js.abort = err.Error()
	for name, msg := range js.readies {
		respond(msg, start{Abort: js.abort})
		delete(js.readies, name)
	}
	m.mu.Unlock()
	b, _ := json.Marshal(abort{Job: js.id, Reason: err.Error()})
	_ = m.nc.Publish(subjAbort, b)
	// The agents close their sessions before the run goes on (its
	// cleanup, or the next attempt): a bounded wait, since a lost or
	// stopped agent never answers.
	wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = m.awaitFinished(wctx, js)
	cancel()
	if cycle > 0 {
		out.Interrupted = &driver.CycleResult{Cycle: cycle}
	}
	return out, err
}

// progress reports the load's progress every second from the agents'
// heartbeats while cycle i runs.
func (m *Master) progress(cfg driver.Config, i int, start time.Time) (stop func()) {
	if cfg.Progress == nil {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(beat)
		defer t.Stop()
		// The rate adds each live agent's gain over the second: an agent
		// lost in between leaves the sum without making the rate fall.
		prev, prevAt := map[*agent]int64{}, start
		types := newTypeRates(cfg.Types)
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			m.mu.Lock()
			var committed, failed, gained int64
			now := map[*agent]int64{}
			for _, a := range m.live() {
				committed += a.committed
				failed += a.failed
				now[a] = a.committed
				gained += max(a.committed-prev[a], 0)
				types.add(a, a.types)
			}
			m.mu.Unlock()
			at := time.Now()
			tps, dt := 0.0, at.Sub(prevAt).Seconds()
			if dt > 0 {
				tps = float64(gained) / dt
			}
			prev, prevAt = now, at
			cfg.Progress(driver.Progress{Cycle: i, Cycles: cfg.Cycles, Elapsed: min(max(at.Sub(start), 0), cfg.Duration),
				Duration: cfg.Duration, Committed: committed, Failed: failed, TPS: tps, Types: types.take(dt)})
		}
	}()
	return func() { close(quit); <-done }
}
