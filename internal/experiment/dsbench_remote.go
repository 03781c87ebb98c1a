package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/nodes"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// RemoteNodes is a sweep's load from remote agents (dsbench --listen or
// --nats): the master's NATS, and how it treats its agents.
type RemoteNodes struct {
	// Listen.Addr set: an embedded NATS server there; else Dial joins an
	// existing NATS.
	Listen nodes.Listen
	Dial   nodes.Dial
	// AgentTimeout bounds the wait for the agents to register.
	AgentTimeout time.Duration
	// TolerateLoss goes on with the surviving agents when one is lost.
	TolerateLoss bool
}

// dsbenchKind is the job kind of a sweep's scale on an agent.
const dsbenchKind = "dsbench"

// dsbenchJob is what an agent needs to run a scale's clients: Workload is
// the registered workload's name, which the agent's binary has too (the
// master and its agents run one version), with its Options.
type dsbenchJob struct {
	URL, Workload, Form, Isolation string
	Options                        json.RawMessage `json:",omitempty"`
	// Spread places the agent's clients on a cluster's nodes (--spread).
	Spread  string
	Prepare bool
	// Retry: the load repeats failed transactions (--retry).
	Retry   bool
	Scale   int64
	Threads int
	// Nodes are the agents of the load, Seed the run's: a workload whose
	// clients seed generators of their own does it by their number among
	// all clients.
	Nodes int
	Seed  uint64
	// Session are the statements every client session runs first.
	Session []string `json:",omitempty"`
}

func init() { nodes.Register(dsbenchKind, buildDSBenchLoad) }

// buildDSBenchLoad is an agent's side of a scale: the same clients as a
// local run's, on the server as the agent reaches it.
func buildDSBenchLoad(ctx context.Context, payload json.RawMessage, env nodes.Env) (*nodes.Load, error) {
	var j dsbenchJob
	if err := json.Unmarshal(payload, &j); err != nil {
		return nil, fmt.Errorf("dsbench job: %w", err)
	}
	url := j.URL
	if env.DB != "" {
		url = env.DB
	}
	iso, err := dbms.ParseIsolation(j.Isolation)
	if err != nil {
		return nil, err
	}
	w, err := workload.NewConfigured(j.Workload, j.Options)
	if err != nil {
		return nil, err
	}
	// A session now: the server is reachable from here and populated.
	e, err := dbms.Open(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dbms.RedactPasswords(url), err)
	}
	defer e.Close()
	// Its first table only (a parent, filled first): counting the rows of
	// every table would cost the agent's start a scan of the largest. A
	// workload whose tables its own init makes has none to count.
	if ts := w.Schema(j.Scale).Tables; len(ts) > 0 {
		if _, err := e.QueryRows(ctx, "SELECT count(*) FROM "+ts[0].Name); err != nil {
			return nil, fmt.Errorf("the database is not populated: %w", err)
		}
	}
	cfg := workload.ClientConfig{Prepare: j.Prepare, Isolation: iso, Retry: j.Retry}
	if j.Form == formProcedure {
		if cfg.Procedure, err = procedureOf(w, e); err != nil {
			return nil, err
		}
	}
	c := newDSBenchClients(w, cfg, j.Threads, 1)
	c.scale.Store(j.Scale)
	c.session, c.seed, c.allNodes = j.Session, j.Seed, max(j.Nodes, 1)
	sp, err := newSpread(ctx, url, j.Spread)
	if err != nil {
		return nil, err
	}
	return &nodes.Load{
		Config: driver.Config{
			Open:       c.opener(url, sp, 1),
			Targets:    sp.count(),
			Setup:      c.setup,
			NewOp:      c.newOp,
			Types:      c.typeNames(),
			Statements: c.statementNames(e.Name()),
			Wait:       c.waits(),
		},
		Counters: c.counters,
	}, nil
}

// startMaster starts the sweep's master and waits for its agents.
func (r *dsbenchRun) startMaster(ctx context.Context, version string) error {
	rn := r.plan.Remote
	opt := nodes.MasterOptions{Listen: rn.Listen, Dial: rn.Dial, Agents: r.plan.Nodes,
		Version: version, TolerateLoss: rn.TolerateLoss, Log: func(f string, a ...any) { r.pr.Line(f, a...) }}
	if r.live != nil {
		opt.Status = r.liveNodes
	}
	m, err := nodes.NewMaster(opt)
	if err != nil {
		return err
	}
	r.master = m
	if err := m.WaitAgents(ctx, rn.AgentTimeout); err != nil {
		return err
	}
	r.res.Agents = m.Agents()
	return nil
}

// stopMaster ends the agents' run, saying why when it failed.
func (r *dsbenchRun) stopMaster(err error) {
	if r.master == nil {
		return
	}
	r.res.Agents = r.master.Agents()
	reason := ""
	if err != nil {
		reason = err.Error()
	}
	r.master.Close(reason)
}

// runLoad runs a scale's cycles: here, or on the agents.
func (r *dsbenchRun) runLoad(ctx context.Context, x int64, cfg driver.Config) (*driver.Result, *nodes.Outcome, error) {
	if r.master == nil {
		res, err := driver.Run(ctx, cfg)
		return res, nil, err
	}
	job := nodes.Job{
		Kind: dsbenchKind, Label: fmt.Sprintf("scale %d", x),
		Payload: dsbenchJob{URL: r.url, Workload: r.plan.Mode, Options: r.plan.WorkloadOptions, Form: r.plan.Form, Isolation: r.plan.Isolation.String(),
			Prepare: r.plan.Prepare, Retry: r.plan.Retry, Scale: x, Threads: r.plan.Threads, Spread: r.plan.Spread, Session: r.plan.Session,
			Nodes: max(r.plan.Nodes, 1), Seed: r.plan.Seed},
		Counters: r.clients.fromCounters,
		NodeLost: func(node int) {
			r.nodeLost = true
			r.warn(fmt.Sprintf("scale %d: agent %s lost; its commits are unknown from now on, so the checks of this scale check only what holds whatever they were (the commits counted as a lower bound)", x, r.nodeName(node)))
		},
	}
	out, err := r.master.Run(ctx, job, cfg)
	r.res.Agents = r.master.Agents()
	if out == nil {
		return nil, nil, err
	}
	return out.Result, out, err
}

func (r *dsbenchRun) nodeName(node int) string {
	for _, a := range r.master.Agents() {
		if a.Node == node {
			return a.Name
		}
	}
	return "node " + results.NodeNumber(node)
}

// nodeResults stores what each node did at the scale: per cycle its
// counts, per node that ran any of the scale's cycles its rate (equation
// 6, over the cycles it ran, the node diagram) and its interval log.
func (r *dsbenchRun) nodeResults(sr *results.ScaleResult, out *nodes.Outcome) error {
	sr.NodeCycles = out.Nodes
	rates, err := stats.NodeCycleRates(threadCycles(sr.CycleDetail), len(out.Cycles), r.plan.Duration.Seconds())
	if err != nil {
		return err
	}
	byNode := map[int][]float64{}
	for _, nr := range rates {
		byNode[nr.Node] = nr.Cycles
	}
	for _, a := range r.res.Agents {
		cs, ran := byNode[a.Node]
		if !ran {
			// Lost before the scale: it ran none of its cycles, a gap in
			// its tables and its line, not a rate of 0 it never measured.
			continue
		}
		nr := results.NodeRate{Node: a.Node, Name: a.Name, MedianTPS: stats.Median(cs)}
		if a.Node < len(out.PerNode) {
			pn := out.PerNode[a.Node]
			nr.Transactions, nr.Failed = pn.Committed, pn.Failed
			nr.ClientCPUS = out.CPUSeconds[a.Node]
			if pn.Committed > 0 {
				us := 1e6 * nr.ClientCPUS / float64(pn.Committed)
				nr.ClientCPUPerTxUS = &us
			}
			if len(pn.Cycles) > 0 {
				name := fmt.Sprintf("residence_scale%d_node%s.hlog", sr.Scale, results.NodeNumber(a.Node))
				if err := writeHistogramLog(r.run, name, pn); err != nil {
					return err
				}
				nr.HistogramFile = name
			}
		}
		sr.NodeRates = append(sr.NodeRates, nr)
	}
	return nil
}
