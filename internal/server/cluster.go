package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Cluster is a private replicated cluster on loopback: one instance per
// node, in DIR/n1, DIR/n2, ..., each an ordinary Instance of its engine
// (so `server stop ENGINE --dir DIR/n2` and Instance.Kill act on one
// node), recorded together in DIR/dbgauge-cluster.json.
type Cluster struct {
	// Kind is the cluster kind: galera, or postgres (a primary with
	// streaming standbys).
	Kind  string  `json:"kind"`
	Dir   string  `json:"dir"`
	Nodes []*Node `json:"nodes"`
	// URL names every node, in node order, for --db.
	URL string `json:"url"`
	// Sync: commits wait for a standby (postgres).
	Sync bool `json:"sync,omitempty"`
}

// Node is one member of a cluster.
type Node struct {
	Name string `json:"name"` // n1, n2, ...
	// Role is what the node does when the cluster starts: primary or
	// standby (postgres), node (galera: every node takes writes).
	Role string `json:"role"`
	*Instance
}

// Node roles.
const (
	RolePrimary = "primary"
	RoleStandby = "standby"
	RoleNode    = "node"
)

// ClusterOptions shape a new cluster.
type ClusterOptions struct {
	// Nodes is how many nodes in all (a postgres cluster: the primary and
	// Nodes-1 standbys).
	Nodes int
	// Sync makes commits wait for a standby (postgres): the first standby
	// is synchronous, the others potential.
	Sync bool
	// Settings are server options applied on every node.
	Settings map[string]string
}

// clusterKind is one way to run a replicated cluster. Implementations live
// in one file each and register in init().
type clusterKind interface {
	// available says whether the packages are installed, and if not,
	// which Debian packages to install.
	available() error
	// create lays out and starts a new cluster's nodes; c.Nodes holds
	// their names, directories and ports.
	create(ctx context.Context, c *Cluster, opt ClusterOptions) error
	// startNode starts node n of a cluster whose other nodes may run
	// (a restart after Kill, a rejoin); bootstrap is set for the first
	// node when no other runs.
	startNode(ctx context.Context, c *Cluster, n *Node, bootstrap bool) error
	// failover makes the cluster take writes again after node dead
	// crashed and returns the node promoted in its place (-1: none was
	// needed); rejoin brings a crashed node back in step and says how
	// (cluster_fault.go).
	failover(ctx context.Context, c *Cluster, dead int) (int, error)
	rejoin(ctx context.Context, c *Cluster, n *Node) (string, error)
	// shape is how the command line gives the cluster's size.
	shape() ClusterShape
	// url names the nodes in one URL.
	url(nodes []*Node) string
}

// ClusterShape is how the command line sizes a kind of cluster.
type ClusterShape struct {
	// SizeFlag names the flag that gives the size ("nodes", or
	// "standbys" for a primary and its standbys); the cluster has
	// value+Offset nodes, for a value from Min to Max, Default when the
	// flag is not given.
	SizeFlag                  string
	Offset, Min, Max, Default int
	// Sync says whether commits may wait for a standby (--sync).
	Sync bool
}

// ClusterShapeOf is how the command line sizes clusters of kind; false
// when kind is no cluster kind.
func ClusterShapeOf(kind string) (ClusterShape, bool) {
	k, ok := clusterKinds[kind]
	if !ok {
		return ClusterShape{}, false
	}
	return k.shape(), true
}

var clusterKinds = map[string]clusterKind{}

func registerCluster(name string, k clusterKind) {
	if _, dup := clusterKinds[name]; dup {
		panic("server: cluster kind registered twice: " + name)
	}
	clusterKinds[name] = k
}

// ClusterKinds lists the kinds of cluster StartCluster knows.
func ClusterKinds() []string {
	var out []string
	for k := range clusterKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// IsCluster says whether kind names a cluster only (galera), not a single
// instance with optional standbys.
func IsCluster(kind string) bool {
	_, c := clusterKinds[kind]
	_, single := kinds[kind]
	return c && !single
}

const clusterFile = "dbgauge-cluster.json"

// ErrClusterMismatch is a cluster asked for that cannot be: too few
// nodes, a directory holding something else, a stopped cluster started
// with other options. The command line's mistake: errors.Is finds it in
// the errors mismatch makes.
var ErrClusterMismatch = errors.New("cluster options do not fit")

// mismatch is an ErrClusterMismatch that reads as its own words.
func mismatch(format string, a ...any) error {
	return &mismatchError{fmt.Sprintf(format, a...)}
}

type mismatchError struct{ msg string }

func (e *mismatchError) Error() string        { return e.msg }
func (e *mismatchError) Is(target error) bool { return target == ErrClusterMismatch }

// HasCluster says whether dir records a cluster (running or stopped).
func HasCluster(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, clusterFile))
	return err == nil
}

// StartCluster starts a cluster of kind in dir: a new one when dir holds
// none, else the stopped one recorded there, on its ports (opt.Nodes and
// opt.Sync must then match it, or be 0 and false).
func StartCluster(ctx context.Context, kind, dir string, opt ClusterOptions) (*Cluster, error) {
	k, ok := clusterKinds[kind]
	if !ok {
		return nil, fmt.Errorf("%w %q (clusters: %s)", ErrUnknownEngine, kind, strings.Join(ClusterKinds(), ", "))
	}
	if err := k.available(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if HasCluster(abs) {
		return restartCluster(ctx, k, kind, abs, opt)
	}
	if sh := k.shape(); opt.Nodes < sh.Min+sh.Offset {
		return nil, mismatch("a %s cluster needs at least %d nodes, not %d", kind, sh.Min+sh.Offset, opt.Nodes)
	}
	if entries, _ := os.ReadDir(abs); len(entries) > 0 {
		return nil, mismatch("%s is not empty and holds no cluster: give a new or empty directory", abs)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", abs, err)
	}
	c := &Cluster{Kind: kind, Dir: abs, Sync: opt.Sync}
	// One password for every node: a standby is a copy of the primary, a
	// Galera node's accounts come with its state transfer.
	password, err := newPassword()
	if err != nil {
		return nil, err
	}
	for i := 1; i <= opt.Nodes; i++ {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("n%d", i)
		c.Nodes = append(c.Nodes, &Node{Name: name, Instance: &Instance{Dir: filepath.Join(abs, name), Port: port, Password: password}})
	}
	if err := k.create(ctx, c, opt); err != nil {
		err = fmt.Errorf("start %s cluster in %s: %w", kind, abs, err)
		if serr := c.stopNodes(); serr != nil {
			err = fmt.Errorf("%w; stopping what started: %v", err, serr)
		}
		return nil, err
	}
	c.URL = k.url(c.Nodes)
	if err := c.save(); err != nil {
		c.stopNodes()
		return nil, err
	}
	return c, nil
}

// restartCluster starts the stopped cluster recorded in dir: the first
// node first (bootstrapping it where the kind needs that), then the others.
func restartCluster(ctx context.Context, k clusterKind, kind, dir string, opt ClusterOptions) (*Cluster, error) {
	c, err := LoadCluster(dir)
	if err != nil {
		return nil, err
	}
	if c.Kind != kind {
		return nil, mismatch("%s holds a %s cluster, not %s", dir, c.Kind, kind)
	}
	if (opt.Nodes != 0 && opt.Nodes != len(c.Nodes)) || (opt.Sync && !c.Sync) {
		return nil, mismatch("%s holds a %s cluster of %d nodes (sync %v): start it as it is, or use another directory", dir, kind, len(c.Nodes), c.Sync)
	}
	for _, n := range c.Nodes {
		if n.alive() {
			return nil, fmt.Errorf("%w: node %s of the %s cluster in %s runs (pid %d): stop it first", ErrRunning, n.Name, kind, dir, n.PID)
		}
	}
	for i, n := range c.Nodes {
		if err := k.startNode(ctx, c, n, i == 0); err != nil {
			err = fmt.Errorf("start node %s of the %s cluster in %s: %w", n.Name, kind, dir, err)
			if serr := c.stopNodes(); serr != nil {
				err = fmt.Errorf("%w; stopping what started: %v", err, serr)
			}
			return nil, err
		}
	}
	return c, c.save()
}

// LoadCluster reads the cluster recorded in dir.
func LoadCluster(dir string) (*Cluster, error) {
	b, err := os.ReadFile(filepath.Join(dir, clusterFile))
	if err != nil {
		return nil, fmt.Errorf("no dbgauge cluster in %s: %w", dir, err)
	}
	var c Cluster
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, clusterFile), err)
	}
	for _, n := range c.Nodes {
		if n.Instance == nil {
			return nil, fmt.Errorf("read %s: node %s has no instance", filepath.Join(dir, clusterFile), n.Name)
		}
	}
	return &c, nil
}

// StopCluster stops the cluster recorded in dir, which must be of kind.
func StopCluster(kind, dir string) error {
	c, err := LoadCluster(dir)
	if err != nil {
		return err
	}
	if c.Kind != kind {
		return fmt.Errorf("%s holds a %s cluster, not %s", dir, c.Kind, kind)
	}
	return c.Stop()
}

// Stop stops every node, the last one last (a Galera cluster restarts
// from the node stopped last; a primary outlives its standbys).
func (c *Cluster) Stop() error {
	if err := c.stopNodes(); err != nil {
		return err
	}
	return c.save()
}

func (c *Cluster) stopNodes() error {
	var errs []error
	for i := len(c.Nodes) - 1; i >= 0; i-- {
		n := c.Nodes[i]
		if n.Instance == nil || n.Engine == "" || n.PID == 0 {
			continue // never started
		}
		k := kinds[n.Engine]
		if k == nil {
			errs = append(errs, fmt.Errorf("node %s: %w %q", n.Name, ErrUnknownEngine, n.Engine))
			continue
		}
		if err := k.stop(n.Instance); err != nil {
			errs = append(errs, fmt.Errorf("stop node %s: %w", n.Name, err))
			continue
		}
		if err := n.saveStopped(); err != nil {
			errs = append(errs, fmt.Errorf("record node %s stopped: %w", n.Name, err))
		}
	}
	return errors.Join(errs...)
}

// StartNode starts node i (0-based) again after Kill or Stop: it rejoins
// the running nodes (Galera by incremental state transfer, a standby by
// streaming from the primary).
func (c *Cluster) StartNode(ctx context.Context, i int) error {
	if i < 0 || i >= len(c.Nodes) {
		return fmt.Errorf("the %s cluster in %s has no node %d (it has %d)", c.Kind, c.Dir, i+1, len(c.Nodes))
	}
	others := false
	for j, n := range c.Nodes {
		others = others || (j != i && n.alive())
	}
	if err := clusterKinds[c.Kind].startNode(ctx, c, c.Nodes[i], !others); err != nil {
		return fmt.Errorf("start node %s of the %s cluster in %s: %w", c.Nodes[i].Name, c.Kind, c.Dir, err)
	}
	return c.save()
}

// save records the cluster, and each node's instance in its own directory.
func (c *Cluster) save() error {
	for _, n := range c.Nodes {
		if n.alive() {
			if err := n.save(); err != nil {
				return err
			}
		}
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return writePrivate(filepath.Join(c.Dir, clusterFile), b)
}

// hostList is the nodes' loopback addresses joined by commas, for URLs
// naming several hosts.
func hostList(nodes []*Node) string {
	addrs := make([]string, len(nodes))
	for i, n := range nodes {
		addrs[i] = fmt.Sprintf("127.0.0.1:%d", n.Port)
	}
	return strings.Join(addrs, ",")
}
