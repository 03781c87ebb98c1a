package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dbgauge/dbgauge/internal/results"
)

// MasterOptions configure a master.
type MasterOptions struct {
	// Listen starts an embedded NATS server; or Dial joins an existing
	// one (Listen.Addr == "").
	Listen Listen
	Dial   Dial
	// Agents is the number of agents the load needs.
	Agents int
	// Version is dbgauge's; an agent of another is refused.
	Version string
	// TolerateLoss goes on with the surviving agents when one is lost,
	// flagging the cycle; otherwise the loss ends the run.
	TolerateLoss bool
	// Log prints a line of progress (nil: silent).
	Log func(format string, args ...any)
	// Status, if set, receives every agent's status about every second,
	// from a goroutine of the master's; it must not block.
	Status func([]AgentStatus)
}

// Master is the side of the load that registers agents, hands them jobs and
// merges what they measured. Its methods are called from one goroutine;
// NATS handlers run on others and share the state under mu.
type Master struct {
	opt MasterOptions
	nc  *nats.Conn
	emb *Embedded
	// URL is what agents dial.
	URL string
	// run names the run for the agents' files (the master's start time).
	run  string
	subs []*nats.Subscription
	quit chan struct{}
	done sync.WaitGroup

	mu sync.Mutex
	// changed is closed (and replaced) whenever the state below changes.
	changed chan struct{}
	agents  map[string]*agent
	nodes   []*agent // in node order, once every agent registered
	job     *jobState
}

// agent is the master's record of one agent.
type agent struct {
	info     results.AgentInfo
	pid      int
	lastSeen time.Time
	// missingAt is when it was found missing (zero while heard).
	missingAt time.Time
	lost      bool
	offset    Offset
	// The agent's load in its current cycle, from its heartbeats.
	committed, failed int64
	types             []int64 // per transaction type; nil when not told
}

// NewMaster starts the embedded NATS server (or joins the one named) and
// listens for agents.
func NewMaster(o MasterOptions) (*Master, error) {
	m := &Master{opt: o, run: time.Now().UTC().Format("20060102T150405Z"), quit: make(chan struct{}), changed: make(chan struct{}), agents: map[string]*agent{}}
	if o.Log == nil {
		m.opt.Log = func(string, ...any) {}
	}
	d := o.Dial
	if o.Listen.Addr != "" {
		l := o.Listen
		l.log = m.opt.Log
		emb, err := StartEmbedded(l)
		if err != nil {
			return nil, err
		}
		m.emb = emb
		d = Dial{URL: emb.URL, Token: o.Listen.Token, Name: "dbgauge master", inProcess: emb.srv, inProcessTLS: o.Listen.TLS != nil}
	}
	m.URL = d.URL
	nc, err := d.connect()
	if err != nil {
		m.close()
		return nil, err
	}
	m.nc = nc
	for subj, h := range map[string]nats.MsgHandler{
		subjHello: m.onHello, subjTime: m.onTime, subjBeat: m.onBeat,
		subjReady: m.onReady, subjReport: m.onReport, subjFinished: m.onFinished,
	} {
		s, err := nc.Subscribe(subj, h)
		if err != nil {
			m.close()
			return nil, fmt.Errorf("subscribe %s: %w", subj, err)
		}
		m.subs = append(m.subs, s)
	}
	if err := nc.Flush(); err != nil {
		m.close()
		return nil, fmt.Errorf("NATS at %s: %w", d.URL, err)
	}
	m.done.Add(2)
	go m.beat()
	go m.watch()
	return m, nil
}

// signal wakes whoever waits for a change; under mu.
func (m *Master) signal() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// await calls cond under mu until it says done or fails, waking on every
// change and every quarter second; it ends on ctx.
func (m *Master) await(ctx context.Context, cond func() (bool, error)) error {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		m.mu.Lock()
		ok, err := cond()
		ch := m.changed
		m.mu.Unlock()
		if ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-ch:
		case <-tick.C:
		}
	}
}

// respond answers a request; a lost answer is asked for again.
func respond(msg *nats.Msg, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // our own message types
	}
	_ = msg.Respond(b)
}

func (m *Master) onHello(msg *nats.Msg) {
	var h hello
	if err := json.Unmarshal(msg.Data, &h); err != nil {
		respond(msg, welcome{Refused: "unreadable hello: " + err.Error()})
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	refuse := func(format string, args ...any) {
		why := fmt.Sprintf(format, args...)
		m.opt.Log("refused agent %s on %s: %s", h.Name, h.Host, why)
		respond(msg, welcome{Refused: why})
	}
	switch a, known := m.agents[h.Name]; {
	case h.Version != m.opt.Version:
		refuse("it runs dbgauge %s and the master %s: run the same build on every machine", h.Version, m.opt.Version)
	case h.Config != ConfigHash():
		refuse("its configuration %s differs from the master's %s (protocol, histogram geometry or job kinds): run the same build on every machine", h.Config, ConfigHash())
	case known && a.pid == h.PID && a.info.Host == h.Host && !a.lost:
		respond(msg, welcome{Run: m.run}) // its first answer was lost
	case known && m.nodes == nil && time.Since(a.lastSeen) >= Missing:
		// Before the load is dealt out, an agent started again (its
		// earlier process died, silent since) takes its own place.
		m.register(msg, h, fmt.Sprintf("registered again from %s (its earlier process has been silent for %.0f s)", h.Host, time.Since(a.lastSeen).Seconds()))
	case known:
		refuse("another agent has the name %s: give each agent its own --name", h.Name)
	case len(m.agents) >= m.opt.Agents:
		refuse("the master has its %d agents already", m.opt.Agents)
	default:
		m.register(msg, h, fmt.Sprintf("registered from %s (%d cores): %d of %d agents in", h.Host, h.Cores, len(m.agents)+1, m.opt.Agents))
	}
}

// register takes agent h in and welcomes it; under mu.
func (m *Master) register(msg *nats.Msg, h hello, how string) {
	m.agents[h.Name] = &agent{pid: h.PID, lastSeen: time.Now(), info: results.AgentInfo{
		Name: h.Name, Host: h.Host, Version: h.Version, Cores: h.Cores, MemoryBytes: h.Memory, Status: "ok"}}
	m.opt.Log("agent %s %s", h.Name, how)
	respond(msg, welcome{Run: m.run})
	m.signal()
}

func (m *Master) onTime(msg *nats.Msg) {
	respond(msg, clockReply{UnixNano: time.Now().UnixNano()})
}

// heard notes a sign of life of agent name; under mu. A lost agent stays
// lost: its load has been written off.
func (m *Master) heard(name string) *agent {
	a := m.agents[name]
	if a == nil || a.lost {
		return nil
	}
	now := time.Now()
	if gap := now.Sub(a.lastSeen); gap > beat+beat/2 {
		a.info.HeartbeatsLost += int64(gap/beat) - 1
	}
	a.lastSeen = now
	if !a.missingAt.IsZero() {
		m.event(a, "back after %.1f s of silence", now.Sub(a.missingAt).Seconds()+Missing.Seconds())
		a.missingAt = time.Time{}
		a.info.Status = "ok"
		m.signal()
	}
	return a
}

func (m *Master) onBeat(msg *nats.Msg) {
	var h heartbeat
	if json.Unmarshal(msg.Data, &h) != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.heard(h.Name); a != nil {
		// Counts of another cycle (the one before, still in flight when
		// this one was announced) are not this cycle's progress.
		a.committed, a.failed, a.types = 0, 0, nil
		if js := m.job; js != nil && h.Job == js.id && h.Cycle == js.cycle {
			a.committed, a.failed, a.types = h.Committed, h.Failed, h.Types
		}
	}
}

// event records what happened to an agent, with where the load was; under mu.
func (m *Master) event(a *agent, format string, args ...any) {
	where := time.Now().UTC().Format("15:04:05")
	switch j := m.job; {
	case j == nil:
	case j.over:
		where += " after " + j.label
	case j.cycle == 0:
		where += " before " + j.label
	default:
		where += fmt.Sprintf(" %s cycle %d", j.label, j.cycle)
	}
	e := where + ": " + fmt.Sprintf(format, args...)
	a.info.Events = append(a.info.Events, e)
	m.opt.Log("agent %s: %s", a.info.Name, e)
}

// watch finds silent agents: missing after Missing, lost after Lost.
func (m *Master) watch() {
	defer m.done.Done()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-m.quit:
			return
		case <-t.C:
		}
		m.mu.Lock()
		now := time.Now()
		for _, a := range m.agents {
			silent := now.Sub(a.lastSeen)
			switch {
			case a.lost:
			case silent >= Lost:
				a.lost, a.info.Status = true, "lost"
				m.event(a, "lost: no heartbeat for %.0f s", silent.Seconds())
				m.signal()
			case silent >= Missing && a.missingAt.IsZero():
				a.missingAt, a.info.Status = now, "missing"
				m.event(a, "missing: no heartbeat for %.0f s", silent.Seconds())
				if js := m.job; js != nil && !js.over {
					if _, running := js.announced[js.cycle]; running {
						js.missingIn[js.cycle] = append(js.missingIn[js.cycle], a.info.Name)
					}
				}
				m.signal()
			}
		}
		m.mu.Unlock()
	}
}

// beat tells the agents every second that the master is alive.
func (m *Master) beat() {
	defer m.done.Done()
	t := time.NewTicker(beat)
	defer t.Stop()
	for {
		_ = m.nc.Publish(subjMasterBt, nil)
		m.reportStatus()
		select {
		case <-m.quit:
			return
		case <-t.C:
		}
	}
}

// ErrAgentTimeout is returned by WaitAgents.
var ErrAgentTimeout = errors.New("agents missing")

// WaitAgents waits until every agent has registered, or timeout; then
// numbers them in the order of their names.
func (m *Master) WaitAgents(ctx context.Context, timeout time.Duration) error {
	m.opt.Log("waiting up to %v for %d agents at %s", timeout, m.opt.Agents, m.URL)
	tctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrAgentTimeout)
	defer cancel()
	err := m.await(tctx, func() (bool, error) { return len(m.agents) >= m.opt.Agents, nil })
	m.mu.Lock()
	defer m.mu.Unlock()
	if errors.Is(err, ErrAgentTimeout) {
		var names []string
		for n := range m.agents {
			names = append(names, n)
		}
		slices.Sort(names)
		got := "none"
		if len(names) > 0 {
			got = strings.Join(names, ", ")
		}
		return fmt.Errorf("%w: %d of %d agents registered within %v (%s); start them with: dbgauge agent --master %s",
			ErrAgentTimeout, len(names), m.opt.Agents, timeout, got, m.URL)
	}
	if err != nil {
		return err
	}
	for _, a := range m.agents {
		m.nodes = append(m.nodes, a)
	}
	slices.SortFunc(m.nodes, func(a, b *agent) int { return strings.Compare(a.info.Name, b.info.Name) })
	numbered := make([]string, len(m.nodes))
	for i, a := range m.nodes {
		a.info.Node = i
		numbered[i] = "node " + results.NodeNumber(i) + " " + a.info.Name
	}
	// The order of registration is not the nodes' order: say the numbers
	// the agents' logs and the report use.
	m.opt.Log("load nodes, numbered in the order of the agents' names: %s", strings.Join(numbered, ", "))
	return nil
}

// Agents is what the master knows of its agents, in node order.
func (m *Master) Agents() []results.AgentInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]results.AgentInfo, len(m.nodes))
	for i, a := range m.nodes {
		out[i] = a.info
		out[i].Events = slices.Clone(a.info.Events)
	}
	return out
}

// Close tells the agents the run ended (why, if reason is not empty) and
// stops the master's NATS.
func (m *Master) Close(reason string) {
	if m.nc != nil {
		b, _ := json.Marshal(end{Reason: reason})
		// At most once: said three times, and an agent that still misses
		// it stops after MasterSilent anyway.
		for range 3 {
			_ = m.nc.Publish(subjEnd, b)
			_ = m.nc.FlushTimeout(time.Second)
			time.Sleep(50 * time.Millisecond)
		}
	}
	m.close()
}

func (m *Master) close() {
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
	m.done.Wait()
	if m.nc != nil {
		m.nc.Close()
	}
	if m.emb != nil {
		m.emb.Close()
	}
}
