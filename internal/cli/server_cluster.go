package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/server"
)

// clusterFlags are the flags that shape a cluster, each kind using one
// size flag (server.ClusterShape) and maybe --sync.
var clusterFlags = []string{"nodes", "standbys", "sync"}

// clusterStart starts a cluster when the engine and flags ask for one (a
// kind that is a cluster only; a kind's size flag given; a directory
// holding a stopped cluster) and reports whether they did. A cluster
// prints one URL per node, then the URL naming them all.
func clusterStart(cmd *cobra.Command, engine, dir string, port int, socket bool, settings map[string]string) (bool, error) {
	flags := cmd.Flags()
	shape, isKind := server.ClusterShapeOf(engine)
	if !isKind || !(server.IsCluster(engine) || flags.Changed(shape.SizeFlag) || server.HasCluster(dir)) {
		for _, f := range clusterFlags {
			if flags.Changed(f) {
				return true, usagef("server start %s: --%s is for clusters (%s)", engine, f, clusterUsage())
			}
		}
		return false, nil
	}
	for _, f := range clusterFlags {
		if f != shape.SizeFlag && f != "sync" && flags.Changed(f) {
			return true, usagef("server start %s: a %s cluster's size is --%s, not --%s", engine, engine, shape.SizeFlag, f)
		}
	}
	sync, _ := flags.GetBool("sync")
	if sync && !shape.Sync {
		return true, usagef("server start %s: --sync does not apply to a %s cluster (%s)", engine, engine, clusterUsage())
	}
	size, _ := flags.GetInt(shape.SizeFlag)
	opt := server.ClusterOptions{Sync: sync, Settings: settings}
	switch {
	case flags.Changed(shape.SizeFlag) && (size < shape.Min || size > shape.Max):
		return true, usagef("server start %s: --%s %d: give %d to %d (example: --%s %d)", engine, shape.SizeFlag, size, shape.Min, shape.Max, shape.SizeFlag, max(shape.Default, shape.Min+1))
	case flags.Changed(shape.SizeFlag):
		opt.Nodes = size + shape.Offset
	case server.HasCluster(dir):
		opt.Nodes = 0 // start the stopped cluster as it is
	default:
		opt.Nodes = shape.Default + shape.Offset
	}
	if port != 0 {
		return true, usagef("server start %s: --port is for one instance; a cluster's nodes take free loopback ports", engine)
	}
	if socket {
		return true, usagef("server start %s: --socket is for one instance; a cluster is named by its nodes' TCP addresses", engine)
	}
	t := time.Now()
	c, err := server.StartCluster(cmd.Context(), engine, dir, opt)
	if errors.Is(err, server.ErrRunning) || errors.Is(err, server.ErrClusterMismatch) {
		return true, usagef("%v", err)
	}
	if err != nil {
		return true, err
	}
	stderr, stdout := cmd.ErrOrStderr(), cmd.OutOrStdout()
	fmt.Fprintf(stderr, "started a %s cluster of %d nodes in %s in %.1f s\n", c.Kind, len(c.Nodes), c.Dir, time.Since(t).Seconds())
	for _, n := range c.Nodes {
		fmt.Fprintf(stderr, "  %s %s: pid %d, port %d\n", n.Name, n.Role, n.PID, n.Port)
	}
	for _, n := range c.Nodes {
		fmt.Fprintln(stdout, n.URL)
	}
	fmt.Fprintln(stdout, c.URL)
	return true, nil
}

// clusterUsage says how each kind of cluster is started, from the kinds
// themselves: "galera --nodes N; postgres --standbys N [--sync]".
func clusterUsage() string {
	var parts []string
	for _, k := range server.ClusterKinds() {
		sh, _ := server.ClusterShapeOf(k)
		p := fmt.Sprintf("%s --%s N", k, sh.SizeFlag)
		if sh.Sync {
			p += " [--sync]"
		}
		parts = append(parts, p)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
