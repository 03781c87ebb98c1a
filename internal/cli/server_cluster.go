package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/server"
)

// clusterStart starts a cluster when the engine and flags ask for one
// (galera; postgres with --standbys) and reports whether they did. A
// cluster prints one URL per node, then the URL naming them all.
func clusterStart(cmd *cobra.Command, engine, dir string, port int, socket bool, settings map[string]string) (bool, error) {
	flags := cmd.Flags()
	nodes, _ := flags.GetInt("nodes")
	standbys, _ := flags.GetInt("standbys")
	sync, _ := flags.GetBool("sync")
	opt := server.ClusterOptions{Sync: sync, Settings: settings}
	switch {
	case server.IsCluster(engine):
		if flags.Changed("standbys") {
			return true, usagef("server start %s: --standbys is for postgres; a %s cluster's size is --nodes", engine, engine)
		}
		if nodes < 1 || nodes > 9 {
			return true, usagef("server start %s: --nodes %d: give 1 to 9 (example: --nodes 3)", engine, nodes)
		}
		opt.Nodes = nodes
		if server.HasCluster(dir) && !flags.Changed("nodes") {
			opt.Nodes = 0 // start the stopped cluster as it is
		}
	case flags.Changed("standbys") || (server.HasCluster(dir) && engine == "postgres"):
		if flags.Changed("nodes") {
			return true, usagef("server start %s: --nodes is for galera; a %s cluster's size is --standbys", engine, engine)
		}
		if _, ok := clusterOf(engine); !ok {
			return true, usagef("server start %s: --standbys is for postgres", engine)
		}
		if flags.Changed("standbys") && (standbys < 1 || standbys > 8) {
			return true, usagef("server start %s: --standbys %d: give 1 to 8 (example: --standbys 2)", engine, standbys)
		}
		if standbys > 0 {
			opt.Nodes = standbys + 1
		}
	default:
		for _, f := range []string{"nodes", "sync"} {
			if flags.Changed(f) {
				return true, usagef("server start %s: --%s is for clusters (galera --nodes N; postgres --standbys N [--sync])", engine, f)
			}
		}
		return false, nil
	}
	if sync && engine != "postgres" {
		return true, usagef("server start %s: --sync is for postgres --standbys N", engine)
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

// clusterOf says whether engine also runs as a cluster of instances.
func clusterOf(engine string) (string, bool) {
	for _, k := range server.ClusterKinds() {
		if k == engine {
			return k, true
		}
	}
	return "", false
}
