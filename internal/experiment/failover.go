package experiment

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
)

// NodeControl is a cluster whose nodes a run may crash and bring back:
// one that dbgauge started (the command line hands over its record), so
// that the nodes' processes are known. Nodes are numbered from 0 in the
// order of Addrs.
type NodeControl interface {
	// Addrs are the nodes' host:port, the hosts of the cluster's URL.
	Addrs() []string
	// KillNode crashes node i (SIGKILL to its server and what it started).
	KillNode(i int) error
	// Failover makes the cluster take writes again without node dead (a
	// standby promoted in a primary's place) and returns the node
	// promoted, -1 when none was needed.
	Failover(ctx context.Context, dead int) (int, error)
	// Rejoin brings node i back in step and says how.
	Rejoin(ctx context.Context, i int) (string, error)
}

// NodeFault is --fault kill-node=N@AT: in the sweep's first scale, node
// Node (0-based, of Control) crashes At after the first cycle began; the
// cluster fails over at once, as a failover manager would; the node is
// brought back RejoinAfter after the kill.
type NodeFault struct {
	Node            int
	At, RejoinAfter time.Duration
	Control         NodeControl
}

// How long the clients are observed before the kill (the rate to get
// back to), and after the node has rejoined.
const (
	observeBefore = 5 * time.Second
	observeAfter  = 10 * time.Second
)

// failoverRun is a node fault in progress during one scale's load: its
// steps run on a goroutine of their own while the clients run.
type failoverRun struct {
	f    *NodeFault
	acks *ackLog
	pr   *progress.Printer
	res  results.Failover
	// The times of its steps (zero: not reached), and the observation's
	// base and end.
	base, kill, promoted, rejoinStart, rejoinEnd, end time.Time
	faults                                            []string
	loadOver, done                                    chan struct{}
	// started: the steps run (a load that ended before its first cycle
	// never started them).
	started atomic.Bool
}

// newFailoverRun prepares the fault against the spread's nodes: the
// node the fault names must be one --db names, found by its address. The
// clients' log (acks) is the scale's, set when its load starts.
func newFailoverRun(f *NodeFault, sp *spread, pr *progress.Printer) (*failoverRun, error) {
	addrs := f.Control.Addrs()
	if f.Node < 0 || f.Node >= len(addrs) {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--fault kill-node=%d: the cluster has nodes 1 to %d", f.Node+1, len(addrs)))
	}
	fr := &failoverRun{f: f, pr: pr, loadOver: make(chan struct{}), done: make(chan struct{})}
	fr.res.Node, fr.res.Addr = f.Node+1, addrs[f.Node]
	if sp == nil {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--fault kill-node: --db names one server; give the URL of every node of the cluster (the last line of dbgauge server start)"))
	}
	for _, n := range sp.nodes {
		if n.Addr == fr.res.Addr {
			fr.res.Role = n.Role
		}
	}
	if fr.res.Role == "" {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--fault kill-node=%d: node %d of --cluster (%s) is not a host of --db (%s)", f.Node+1, f.Node+1, fr.res.Addr, sp.roles()))
	}
	return fr, nil
}

// start runs the fault's steps, counted from first, the start of the
// scale's first cycle.
func (fr *failoverRun) start(ctx context.Context, first time.Time) {
	fr.started.Store(true)
	go fr.steps(ctx, first)
}

func (fr *failoverRun) steps(ctx context.Context, first time.Time) {
	defer close(fr.done)
	defer func() { fr.end = time.Now() }()
	killAt := first.Add(fr.f.At)
	fr.base = first
	if b := killAt.Add(-observeBefore); b.After(first) {
		fr.base = b
	}
	opened := fr.wait(ctx, fr.base)
	if opened {
		fr.acks.open(fr.base)
	}
	if !opened || !fr.wait(ctx, killAt) {
		fr.faults = append(fr.faults, "the load ended before the kill")
		return
	}
	fr.kill = time.Now()
	if err := fr.f.Control.KillNode(fr.f.Node); err != nil {
		fr.faults = append(fr.faults, "kill: "+err.Error())
		return
	}
	fr.res.KillAt, fr.res.AfterS = fr.kill.UTC(), fr.kill.Sub(first).Seconds()
	fr.pr.Line("fault: node %d (%s, %s) killed %.1f s into the scale's load", fr.res.Node, fr.res.Addr, fr.res.Role, fr.res.AfterS)
	// The cluster is made whole whatever happens to ctx: a Ctrl-C must
	// not leave it without a primary, nor with a node down.
	steady := context.WithoutCancel(ctx)
	p, err := fr.f.Control.Failover(steady, fr.f.Node)
	if err != nil && p < 0 {
		// No node took the crashed one's place, or it is not known
		// whether one did: starting the crashed node again could make
		// two primaries. It stays down, and the run says so.
		fr.faults = append(fr.faults, "failover: "+err.Error()+"; the node was left down")
		return
	}
	if err != nil {
		fr.faults = append(fr.faults, "failover: "+err.Error())
	}
	if p >= 0 {
		fr.promoted = time.Now()
		fr.res.Promoted = p + 1
		s := fr.promoted.Sub(fr.kill).Seconds()
		fr.res.PromotedS = &s
		fr.pr.Line("fault: node %d promoted in place of node %d, %.1f s after the kill", p+1, fr.res.Node, s)
	}
	fr.wait(ctx, fr.kill.Add(fr.f.RejoinAfter))
	fr.rejoinStart = time.Now()
	how, err := fr.f.Control.Rejoin(steady, fr.f.Node)
	if err != nil {
		fr.faults = append(fr.faults, "rejoin: "+err.Error())
		return
	}
	fr.rejoinEnd = time.Now()
	fr.res.RejoinHow = how
	fr.pr.Line("fault: node %d back in step %.1f s after its restart (%s)", fr.res.Node, fr.rejoinEnd.Sub(fr.rejoinStart).Seconds(), how)
	fr.wait(ctx, fr.rejoinEnd.Add(observeAfter))
}

// wait sleeps until t, and says false when the load ended or ctx was
// cancelled first.
func (fr *failoverRun) wait(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-fr.loadOver:
	case <-ctx.Done():
	}
	return false
}

// finish is called once the scale's load has ended: it waits for the
// fault's steps (a rejoin under way completes), ends the observation and
// returns the figures; lost writes were added by the checks.
func (fr *failoverRun) finish() *results.Failover {
	loadEnd := time.Now()
	close(fr.loadOver)
	if !fr.started.Load() {
		fr.faults = append(fr.faults, "the load ended before its first cycle began")
		return &fr.res
	}
	<-fr.done
	events := fr.acks.close()
	end := fr.end
	if loadEnd.Before(end) {
		end = loadEnd
	}
	res := &fr.res
	res.Fault = strings.Join(fr.faults, "; ")
	if fr.kill.IsZero() || fr.base.IsZero() {
		return res
	}
	rel := func(t time.Time) int64 {
		if t.IsZero() {
			return -1
		}
		return t.Sub(fr.base).Nanoseconds()
	}
	if !fr.rejoinStart.IsZero() {
		s := fr.rejoinStart.Sub(fr.kill).Seconds()
		res.RejoinStartS = &s
	}
	if !fr.rejoinEnd.IsZero() {
		s := fr.rejoinEnd.Sub(fr.rejoinStart).Seconds()
		res.RejoinS = &s
	}
	o := observation{events: events, kill: rel(fr.kill), end: rel(end), rejoinStart: rel(fr.rejoinStart), rejoinEnd: rel(fr.rejoinEnd)}
	o.figures(res)
	for i := range res.Lost {
		if at, ok := o.ackedAt(res.Lost[i].Client, res.Lost[i].Seq); ok {
			res.Lost[i].AckedS = &at
		}
	}
	return res
}
