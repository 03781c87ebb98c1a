package cli

import (
	"regexp"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/server"
)

// faultFlags are --fault, --cluster and --rejoin-after: a node of a
// cluster dbgauge started crashes under load. They are grouped with
// --check-acks (sweepFlags), the check of acknowledged writes a fault
// always gets, without a fault.
type faultFlags struct {
	fs      *pflag.FlagSet
	fault   string
	cluster string
	rejoin  *flagtype.Value[time.Duration]
}

func newFaultFlags() *faultFlags {
	return &faultFlags{rejoin: flagtype.NonNegativeDuration(10 * time.Second).WithExample("30s")}
}

func (f *faultFlags) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.StringVar(&f.fault, "fault", "", "kill-node=N@AT: kill node N of --cluster (SIGKILL to its server and what it started) AT after the first scale's load began (e.g. kill-node=1@30s); a PostgreSQL primary's place goes at once to its most advanced standby; the run reports the clients' outage, errors, time back to the rate, the node's rejoin and the acknowledged writes lost")
	fl.StringVar(&f.cluster, "cluster", "", "with --fault: the directory of a cluster started by dbgauge server start (its nodes are what --fault kills and brings back; --db defaults to its URL)")
	fl.Var(f.rejoin, "rejoin-after", "with --fault: how long after the kill the node is started again (it rejoins: Galera by state transfer, a failed-over primary rebuilt as a standby)")
	inGroup(fl, "A node's crash, acknowledged writes", "fault", "cluster", "rejoin-after", "check-acks")
}

var killNodeSpec = regexp.MustCompile(`^kill-node=([0-9]+)@(.+)$`)

// faultRun is what the command line says of the run that plan needs.
type faultRun struct {
	resilient, remote, checkAcks bool
	load                         time.Duration // the first scale's load: cycles x duration
}

// plan checks the flags against the run and returns the fault (nil
// without --fault), with the cluster's record loaded, and the cluster's
// URL, which --db defaults to.
func (f *faultFlags) plan(run faultRun) (*experiment.NodeFault, string, error) {
	if run.checkAcks && run.remote {
		return nil, "", usagef("--check-acks: the clients' list of acknowledged writes is kept where they run; with remote agents it is not: leave out --listen/--nats or --check-acks")
	}
	if f.fault == "" {
		for _, name := range []string{"cluster", "rejoin-after"} {
			if f.fs.Changed(name) {
				return nil, "", usagef("--%s applies only with --fault: add --fault kill-node=N@AT or leave --%s out", name, name)
			}
		}
		return nil, "", nil
	}
	m := killNodeSpec.FindStringSubmatch(f.fault)
	if m == nil {
		return nil, "", usagef("--fault %q: give kill-node=N@AT, a node number of --cluster and a time into the load, as in --fault kill-node=1@30s", f.fault)
	}
	node, err := strconv.Atoi(m[1])
	if err != nil || node < 1 {
		return nil, "", usagef("--fault %s: nodes are numbered from 1 (n1 in the cluster's directory)", f.fault)
	}
	at, err := time.ParseDuration(m[2])
	if err != nil || at <= 0 {
		return nil, "", usagef("--fault %s: %q is no positive duration: give one such as 30s", f.fault, m[2])
	}
	switch {
	case f.cluster == "":
		return nil, "", usagef("--fault %s needs --cluster DIR, the directory dbgauge server start made the cluster in: dbgauge kills and restarts its nodes", f.fault)
	case run.remote:
		return nil, "", usagef("--fault %s: the clients' list of acknowledged writes is kept where they run; with remote agents it is not: leave out --listen/--nats", f.fault)
	case !run.resilient:
		return nil, "", usagef("--fault %s: the clients must wait out the crash: add --retry (or --reconnect)", f.fault)
	case at >= run.load:
		return nil, "", usagef("--fault %s: the first scale's load lasts %s (--cycles x --duration): kill earlier or run longer", f.fault, run.load)
	}
	c, err := loadClusterFlag(f.cluster)
	if err != nil {
		return nil, "", err
	}
	if node > len(c.Nodes) {
		return nil, "", usagef("--fault %s: the cluster in %s has nodes 1 to %d", f.fault, f.cluster, len(c.Nodes))
	}
	return &experiment.NodeFault{Node: node - 1, At: at, RejoinAfter: f.rejoin.V, Control: c}, c.URL, nil
}

// loadClusterFlag reads the cluster --cluster names: one line naming the
// flag and the fix when there is none.
func loadClusterFlag(dir string) (*server.Cluster, error) {
	if !server.HasCluster(dir) {
		return nil, usagef("--cluster %s: no cluster of dbgauge's there: give the --dir of dbgauge server start galera|postgres --nodes/--standbys", dir)
	}
	c, err := server.LoadCluster(dir)
	if err != nil {
		return nil, usagef("--cluster %s: %v", dir, err)
	}
	return c, nil
}
