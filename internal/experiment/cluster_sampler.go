package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// clusterSampler reads every cluster node's replication measures once a
// second while a run lasts (dbms.ClusterMonitor): each sample is a line
// of cluster.log as it is taken, and, while a scale's cycles run, part of
// that scale's summary per node. A node that cannot be read (killed,
// restarting) is tried again the next second on a new session.
type clusterSampler struct {
	sp    *spread
	out   io.Writer
	scale func() int64
	// measuring is set while a scale's cycles run.
	measuring atomic.Bool
	mu        sync.Mutex
	acc       []nodeMeasures // per node, the scale in progress
	series    []*nodeSeries  // per node, the scale in progress
	began     time.Time      // the scale in progress began
	sessions  []dbms.Engine  // per node; nil: to be opened
}

// nodeMeasures adds up one node's samples.
type nodeMeasures struct {
	prev             map[string]float64 // counters' last values
	inc, sum, max    map[string]float64
	n                map[string]int
	samples, missing int
}

func newNodeMeasures() nodeMeasures {
	return nodeMeasures{prev: map[string]float64{}, inc: map[string]float64{}, sum: map[string]float64{},
		max: map[string]float64{}, n: map[string]int{}}
}

// add takes one sample: a counter's increase since the last sample (a
// counter that went down was reset by a restart: it counts from 0), a
// level's sum and maximum.
func (a *nodeMeasures) add(ms []dbms.Measure) {
	a.samples++
	for _, m := range ms {
		if m.Counter {
			a.inc[m.Name] += increase(a.prev, m)
			continue
		}
		a.sum[m.Name] += m.Value
		a.n[m.Name]++
		if v, ok := a.max[m.Name]; !ok || m.Value > v {
			a.max[m.Name] = m.Value
		}
	}
}

// increase is counter m's increase since its value in prev (0 the first
// time; a counter that went down was reset by a restart and counted m's
// value since), and records the value in prev.
func increase(prev map[string]float64, m dbms.Measure) float64 {
	p, seen := prev[m.Name]
	prev[m.Name] = m.Value
	switch {
	case !seen:
		return 0
	case m.Value >= p:
		return m.Value - p
	}
	return m.Value
}

// result is the node's summary.
func (a *nodeMeasures) result(node int) results.ClusterNodeMeasures {
	r := results.ClusterNodeMeasures{Node: node, Samples: a.samples, Unreadable: a.missing}
	if len(a.inc) > 0 {
		r.Increase = a.inc
	}
	if len(a.n) > 0 {
		r.Mean, r.Max = map[string]float64{}, a.max
		for k, s := range a.sum {
			r.Mean[k] = s / float64(a.n[k])
		}
	}
	return r
}

// startClusterSampler starts sampling into the run directory's
// cluster.log (appended to: a resumed run continues it); nil without a
// cluster.
func (r *dsbenchRun) startClusterSampler(ctx context.Context) (*clusterSampler, func()) {
	if r.spread == nil {
		return nil, func() {}
	}
	f, err := os.OpenFile(r.run.Path("cluster.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		r.warn("no cluster log: " + err.Error())
		return nil, func() {}
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		fmt.Fprintf(f, "# resumed %s\n", time.Now().UTC().Format(time.RFC3339))
	} else {
		fmt.Fprintln(f, "# time scale node measure=value ... (counters count since the server started; a node that could not be read: unreadable)")
	}
	c := &clusterSampler{sp: r.spread, out: f, scale: r.clients.scale.Load, sessions: make([]dbms.Engine, len(r.spread.nodes))}
	c.reset()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			c.sample(sctx)
			select {
			case <-sctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return c, func() {
		cancel()
		<-done
		for _, e := range c.sessions {
			if e != nil {
				e.Close()
			}
		}
		f.Close()
	}
}

// reset starts a scale's summary.
func (c *clusterSampler) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.acc = make([]nodeMeasures, len(c.sp.nodes))
	c.series = make([]*nodeSeries, len(c.sp.nodes))
	for i := range c.acc {
		c.acc[i] = newNodeMeasures()
		c.series[i] = newNodeSeries()
	}
	c.began = time.Now()
}

// start and stop bracket a scale's cycles; stop returns the nodes'
// summaries and their charted measures over time (nil on a nil sampler).
func (c *clusterSampler) start() {
	if c != nil {
		c.reset()
		c.measuring.Store(true)
	}
}

func (c *clusterSampler) stop() ([]results.ClusterNodeMeasures, *results.ClusterSeries) {
	if c == nil {
		return nil, nil
	}
	c.measuring.Store(false)
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]results.ClusterNodeMeasures, len(c.acc))
	for i := range c.acc {
		out[i] = c.acc[i].result(i)
	}
	return out, clusterSeries(c.began, c.series)
}

// sample reads every node once, each within the second.
func (c *clusterSampler) sample(ctx context.Context) {
	now := time.Now().UTC().Format(time.RFC3339)
	for i := range c.sessions {
		qctx, cancel := context.WithTimeout(ctx, 900*time.Millisecond)
		ms, err := c.read(qctx, i)
		cancel()
		if ctx.Err() != nil {
			return
		}
		slices.SortFunc(ms, func(a, b dbms.Measure) int { return strings.Compare(a.Name, b.Name) })
		var line strings.Builder
		fmt.Fprintf(&line, "%s %d node%d", now, c.scale(), i+1)
		if err != nil {
			line.WriteString(" unreadable")
		}
		for _, m := range ms {
			fmt.Fprintf(&line, " %s=%g", m.Name, m.Value)
		}
		fmt.Fprintln(c.out, line.String())
		if !c.measuring.Load() {
			continue
		}
		c.mu.Lock()
		if err != nil {
			c.acc[i].missing++
		} else {
			c.acc[i].add(ms)
			c.series[i].add(time.Since(c.began).Seconds(), ms)
		}
		c.mu.Unlock()
	}
}

// read samples node i on its session, opening one when it has none; a
// failed session is closed, to be opened again next time.
func (c *clusterSampler) read(ctx context.Context, i int) ([]dbms.Measure, error) {
	if c.sessions[i] == nil {
		e, _, err := dbms.OpenNode(ctx, c.sp.u.Node(i).WithSessionAttrs("any"))
		if err != nil {
			return nil, err
		}
		c.sessions[i] = e
	}
	m, ok := c.sessions[i].(dbms.ClusterMonitor)
	if !ok {
		return nil, nil
	}
	ms, err := m.ClusterMeasures(ctx)
	if err != nil {
		c.sessions[i].Close()
		c.sessions[i] = nil
	}
	return ms, err
}
