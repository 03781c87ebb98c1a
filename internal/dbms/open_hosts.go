package dbms

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ReadOnlyReporter is an engine that can say whether its session may
// write: a standby of a replicated cluster may not (PostgreSQL's hot
// standby); a node that has left its cluster answers nothing (Galera).
// Engines without it take writes.
type ReadOnlyReporter interface {
	ReadOnly(ctx context.Context) (bool, error)
}

// OpenNode opens one session through u: on the first of u's hosts, in
// their order, that accepts one and has the attributes u.SessionAttrs asks
// for (prefer-standby tries the read-only hosts first, then the others;
// without the parameter, a URL of several hosts asks for read-write, unlike
// libpq, since dbgauge's control sessions write).
// It returns which host (0-based) the session went to. A URL of one host
// and no attributes opens as it always did: the adapter's error as it is.
func OpenNode(ctx context.Context, u *URL) (Engine, int, error) {
	a, err := Lookup(u)
	if err != nil {
		return nil, 0, err
	}
	if err := a.checkParams(u); err != nil {
		return nil, 0, err
	}
	if u, err = a.withPassword(u); err != nil {
		return nil, 0, err
	}
	attrs := u.SessionAttrs
	switch {
	case attrs == "" && u.Nodes() > 1:
		// dbgauge's own sessions populate and check: they must write.
		// Clients placed on a cluster's nodes say what they need.
		attrs = "read-write"
	case attrs == "":
		attrs = "any"
	}
	if u.Nodes() == 1 && attrs == "any" {
		e, err := a.Open(ctx, u.Node(0))
		return e, 0, err
	}
	passes := [][2]bool{{true, true}} // accept read-only, accept read-write
	switch attrs {
	case "read-write", "primary":
		passes = [][2]bool{{false, true}}
	case "read-only", "standby":
		passes = [][2]bool{{true, false}}
	case "prefer-standby":
		passes = [][2]bool{{true, false}, {true, true}}
	}
	var why []string
	var errs []error
	for _, pass := range passes {
		for i := range u.Nodes() {
			n := u.Node(i)
			e, err := a.Open(ctx, n)
			if err != nil {
				why = append(why, fmt.Sprintf("%s: %v", n.Hosts[0], err))
				errs = append(errs, err)
				continue
			}
			ro, err := ReadOnly(ctx, e)
			switch {
			case err != nil:
				why = append(why, fmt.Sprintf("%s: %v", n.Hosts[0], err))
				errs = append(errs, err)
			case (ro && pass[0]) || (!ro && pass[1]):
				return e, i, nil
			case ro:
				why = append(why, fmt.Sprintf("%s: read-only", n.Hosts[0]))
			default:
				why = append(why, fmt.Sprintf("%s: takes writes", n.Hosts[0]))
			}
			e.Close()
		}
	}
	msg := fmt.Sprintf("no host of %s gave a session with target_session_attrs=%s (%s)", u.Redacted(), attrs, strings.Join(why, "; "))
	if len(errs) == 0 {
		// Every host answered, none in the role asked for (a primary gone,
		// no standby promoted yet): at the start the user's mistake, during
		// a run a fault that a promotion may cure (driver.MidRun).
		return nil, 0, &Error{Class: BadInput, Err: errors.New(msg)}
	}
	return nil, 0, Reword(msg, errors.Join(errs...))
}

// ReadOnly asks an engine with the ability whether its session is
// read-only; an engine without it takes writes.
func ReadOnly(ctx context.Context, e Engine) (bool, error) {
	r, ok := e.(ReadOnlyReporter)
	if !ok {
		return false, nil
	}
	return r.ReadOnly(ctx)
}

// SyncReader is an engine whose reads may lag behind writes other nodes
// of its cluster committed (Galera applies them asynchronously). SyncReads
// makes the session's reads wait until the node has applied every write
// committed before them, as consistency checks need; a no-op where the
// engine is not such a node.
type SyncReader interface {
	SyncReads(ctx context.Context) error
}

// Replicator is an engine session on a node of a replicated cluster that
// can say how far its node's data go and wait until it has applied what
// another node had: a load must not start on a node that has not yet
// applied the population (a standby replays WAL later; a Galera node
// applies others' write sets asynchronously).
type Replicator interface {
	// Position is everything this node has, as the engine writes it (a
	// WAL location, a Galera seqno); "" when the node replicates nothing.
	Position(ctx context.Context) (string, error)
	// WaitPosition returns once this node has applied everything up to
	// pos (another node's Position), or fails when ctx ends first.
	WaitPosition(ctx context.Context, pos string) error
}

// ClusterMonitor is an engine session that reads its node's replication
// measures: conflicts, flow control, queues, lag. Each call returns the
// node's measures as they are now.
type ClusterMonitor interface {
	ClusterMeasures(ctx context.Context) ([]Measure, error)
}

// Measure is one replication measure of a node. A counter counts since
// the server started (what matters is its increase over a time); a gauge
// is a level now (a lag, a queue length, the cluster's size).
type Measure struct {
	Name    string
	Value   float64
	Counter bool
	// Chart, if set, puts the measure on one of the report's diagrams of
	// the cluster over time (a counter as its increase per second).
	Chart Chart
}

// Chart is a diagram of a cluster's measures over time: what the
// measures drawn on it have in common.
type Chart string

// The diagrams of a cluster over time.
const (
	// ChartLag: how far a standby is behind its primary, in seconds.
	ChartLag Chart = "lag"
	// ChartQueue: replicated changes received and waiting to be applied.
	ChartQueue Chart = "queue"
	// ChartConflicts: transactions or queries that replication made fail
	// (certification failures, aborts by an applied change, queries a
	// standby's replay cancelled).
	ChartConflicts Chart = "conflicts"
)
