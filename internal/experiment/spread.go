package experiment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// How a load's clients are placed on the nodes of a replicated cluster,
// named by a URL of several hosts (--spread).
const (
	// SpreadRoundRobin: client k goes to node k mod n, counting only the
	// nodes that take writes when the client writes (every Galera node;
	// a PostgreSQL primary alone).
	SpreadRoundRobin = "round-robin"
	// SpreadWritesToFirst: every writing client goes to the first node
	// that takes writes, readers round robin over all.
	SpreadWritesToFirst = "writes-to-first"
	// SpreadReadsToStandbys: readers round robin over the read-only nodes
	// (hot standbys), writers to the nodes that take writes.
	SpreadReadsToStandbys = "reads-to-standbys"
)

// SpreadPolicies are the --spread values, the default first.
var SpreadPolicies = []string{SpreadRoundRobin, SpreadWritesToFirst, SpreadReadsToStandbys}

// spread places a load's client sessions on a cluster's nodes. Each
// client gets the URL's hosts in its own order, its node first and the
// others after, so that a client whose node fails opens its next session
// on the next node (as libpq's multi-host connections do); writers ask
// for read-write sessions, so after a failover they find the promoted
// node wherever it is.
type spread struct {
	u      *dbms.URL
	policy string
	// nodes are the cluster's nodes as they were when the run started.
	nodes []results.ClusterNode
}

// newSpread asks every node of a multi-host URL whether it takes writes
// (nil, nil for a URL of one host). A node that cannot be reached at the
// start is the user's mistake: the run would measure another cluster.
func newSpread(ctx context.Context, raw, policy string) (*spread, error) {
	u, err := dbms.ParseURL(raw)
	if err != nil {
		return nil, err
	}
	if u.Nodes() < 2 {
		return nil, nil
	}
	s := &spread{u: u, policy: policy}
	for i := range u.Nodes() {
		n := u.Node(i)
		e, _, err := dbms.OpenNode(ctx, n)
		if err != nil {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("node %d of --db (%s): %w", i+1, n.Hosts[0], err))
		}
		ro, err := dbms.ReadOnly(ctx, e)
		if err == nil {
			err = replicates(ctx, e)
		}
		e.Close()
		if err != nil {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("node %d of --db (%s): %w", i+1, n.Hosts[0], err))
		}
		role := results.RoleWrites
		if ro {
			role = results.RoleReadOnly
		}
		s.nodes = append(s.nodes, results.ClusterNode{Node: i, Addr: n.Hosts[0].String(), Role: role})
	}
	if policy == SpreadReadsToStandbys && len(s.by(results.RoleReadOnly)) == 0 {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--spread %s: no node of --db is read-only (%s): use --spread %s", policy, s.roles(), SpreadRoundRobin))
	}
	return s, nil
}

// replicates refuses a host that says it replicates nothing (an engine
// whose sessions report a replication position, and report none: a
// MariaDB server without Galera): the hosts of a URL are the nodes of one
// replicated cluster, and a load spread over servers that do not share
// their data would fail on tables the others lack.
func replicates(ctx context.Context, e dbms.Engine) error {
	r, ok := e.(dbms.Replicator)
	if !ok {
		return nil
	}
	pos, err := r.Position(ctx)
	if err != nil || pos != "" {
		return err
	}
	return errors.New("a server that replicates nothing, not a node of a replicated cluster: a URL of several hosts names the nodes of one cluster (give this server alone, or the nodes of its cluster)")
}

// by lists the nodes of a role, in URL order.
func (s *spread) by(role string) []int {
	var out []int
	for _, n := range s.nodes {
		if n.Role == role {
			out = append(out, n.Node)
		}
	}
	return out
}

// roles says each node's role in words.
func (s *spread) roles() string {
	parts := make([]string, len(s.nodes))
	for i, n := range s.nodes {
		parts[i] = fmt.Sprintf("%s %s", n.Addr, n.Role)
	}
	return strings.Join(parts, ", ")
}

// order is the node order of client k: its preferred nodes rotated so
// that k's comes first, then the others as fallbacks.
func (s *spread) order(k int, writes bool) []int {
	w, ro := s.by(results.RoleWrites), s.by(results.RoleReadOnly)
	switch {
	case writes && s.policy == SpreadWritesToFirst:
		return append(w, ro...)
	case writes:
		return append(rotate(w, k), ro...)
	case s.policy == SpreadReadsToStandbys:
		return append(rotate(ro, k), w...)
	}
	all := make([]int, len(s.nodes))
	for i := range all {
		all[i] = i
	}
	return rotate(all, k)
}

func rotate(xs []int, k int) []int {
	if len(xs) == 0 {
		return nil
	}
	k %= len(xs)
	return append(append([]int(nil), xs[k:]...), xs[:k]...)
}

// placed is client k's URL, its node first and the others after (a
// writer asks for a read-write session), and the nodes in that order.
func (s *spread) placed(k int, writes bool) (*dbms.URL, []int) {
	order := s.order(k, writes)
	hosts := make([]dbms.HostPort, len(order))
	for i, n := range order {
		hosts[i] = s.u.Hosts[n]
	}
	attrs := "any"
	if writes {
		attrs = "read-write"
	}
	return s.u.WithHosts(hosts).WithSessionAttrs(attrs), order
}

// open opens client k's session and says which node it went to.
func (s *spread) open(ctx context.Context, k int, writes bool) (dbms.Engine, int, error) {
	u, order := s.placed(k, writes)
	e, i, err := dbms.OpenNode(ctx, u)
	if err != nil {
		return nil, 0, err
	}
	return e, order[i], nil
}

// count is the number of nodes the load is spread over (0 without a
// cluster), for driver.Config.Targets.
func (s *spread) count() int {
	if s == nil {
		return 0
	}
	return len(s.nodes)
}

// catchUp returns once every node has applied what the control session's
// node has (the population, the procedure): clients that start on a
// standby or another Galera node before then would find tables or rows
// missing. Nodes that cannot be reached are left out: a load that starts
// with a node down measures that.
func (s *spread) catchUp(ctx context.Context, control dbms.Engine) error {
	if s == nil {
		return nil
	}
	r, ok := control.(dbms.Replicator)
	if !ok {
		return nil
	}
	pos, err := r.Position(ctx)
	if err != nil || pos == "" {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	for i := range s.nodes {
		e, _, err := dbms.OpenNode(wctx, s.u.Node(i).WithSessionAttrs("any"))
		if err != nil {
			continue
		}
		if nr, ok := e.(dbms.Replicator); ok {
			err = nr.WaitPosition(wctx, pos)
		}
		e.Close()
		if err != nil {
			return fmt.Errorf("wait for node %d (%s) to apply the population: %w", i+1, s.nodes[i].Addr, err)
		}
	}
	return nil
}
