package server

import (
	"context"
	"fmt"
	"time"
)

// The faults a run may inflict on a cluster dbgauge started (dsbench
// --fault kill-node): a node crashes, the cluster carries on without it
// (a PostgreSQL primary's place is taken by a standby), and the node
// comes back. Nodes are numbered from 0 in the order of Addrs.

// Addrs are the nodes' loopback addresses (host:port) in node order: the
// hosts of the cluster's URL.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = fmt.Sprintf("127.0.0.1:%d", n.Port)
	}
	return out
}

// node is node i, or an error naming the cluster's size.
func (c *Cluster) node(i int) (*Node, error) {
	if i < 0 || i >= len(c.Nodes) {
		return nil, fmt.Errorf("the %s cluster in %s has no node %d (it has %d)", c.Kind, c.Dir, i+1, len(c.Nodes))
	}
	return c.Nodes[i], nil
}

// KillNode crashes node i: its server and every process the server
// started get SIGKILL (Instance.Crash). It returns once they are gone.
func (c *Cluster) KillNode(i int) error {
	n, err := c.node(i)
	if err != nil {
		return err
	}
	if !n.alive() {
		return fmt.Errorf("node %s of the %s cluster in %s does not run", n.Name, c.Kind, c.Dir)
	}
	if err := n.Crash(); err != nil {
		return fmt.Errorf("node %s: %w", n.Name, err)
	}
	return nil
}

// Failover makes the cluster take writes again after node dead crashed,
// as a failover manager would at once: a PostgreSQL primary's place goes
// to the standby that received the most WAL (promoted), the other
// standbys follow it. It returns the promoted node, or -1 when nothing
// was to be done (a standby died; every Galera node takes writes). After
// an error it still says which node was promoted, if one was.
func (c *Cluster) Failover(ctx context.Context, dead int) (int, error) {
	if _, err := c.node(dead); err != nil {
		return -1, err
	}
	// Recorded whatever happened: a promotion done stays done.
	p, err := clusterKinds[c.Kind].failover(ctx, c, dead)
	if serr := c.save(); err == nil {
		err = serr
	}
	if err != nil {
		return p, fmt.Errorf("fail over from node n%d of the %s cluster in %s: %w", dead+1, c.Kind, c.Dir, err)
	}
	return p, nil
}

// Rejoin brings node i back into the cluster after KillNode (and
// Failover) and returns once it is in step: a Galera node synced again,
// a standby streaming. How says how in words.
func (c *Cluster) Rejoin(ctx context.Context, i int) (how string, err error) {
	n, err := c.node(i)
	if err != nil {
		return "", err
	}
	if n.alive() {
		return "", fmt.Errorf("node %s of the %s cluster in %s runs already", n.Name, c.Kind, c.Dir)
	}
	how, err = clusterKinds[c.Kind].rejoin(ctx, c, n)
	if err != nil {
		return how, fmt.Errorf("rejoin node %s of the %s cluster in %s: %w", n.Name, c.Kind, c.Dir, err)
	}
	return how, c.save()
}

// rejoinLimit bounds a rejoin: a node that is not in step after it has
// failed to come back.
const rejoinLimit = 5 * time.Minute

// Running says whether node i's server runs.
func (c *Cluster) Running(i int) bool {
	n, err := c.node(i)
	return err == nil && n.alive()
}

// StopNode shuts node i down cleanly: a Galera node leaves the cluster,
// a standby stops streaming. StartNode brings it back.
func (c *Cluster) StopNode(i int) error {
	n, err := c.node(i)
	if err != nil {
		return err
	}
	k := kinds[n.Engine]
	if k == nil {
		return fmt.Errorf("node %s: %w %q", n.Name, ErrUnknownEngine, n.Engine)
	}
	if err := k.stop(n.Instance); err != nil {
		return fmt.Errorf("stop node %s of the %s cluster in %s: %w", n.Name, c.Kind, c.Dir, err)
	}
	if err := n.saveStopped(); err != nil {
		return err
	}
	return c.save()
}
