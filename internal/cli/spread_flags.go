package cli

import (
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/experiment"
)

// spreadFlag is --spread: how a load's clients are placed on the nodes of
// a cluster that --db names by several hosts.
type spreadFlag struct {
	fs     *pflag.FlagSet
	policy *flagtype.Value[string]
}

func newSpreadFlag() *spreadFlag {
	return &spreadFlag{policy: flagtype.Choice(experiment.SpreadPolicies[0], experiment.SpreadPolicies...)}
}

func (f *spreadFlag) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.Var(f.policy, "spread", "with a --db naming a cluster's nodes (postgres://u@h1:p1,h2:p2/db): round-robin (client k on node k mod n; writers on the nodes that take writes), writes-to-first (writers on the first node that takes writes, readers round robin) or reads-to-standbys (readers on the read-only nodes); every residence time is counted for the node it went to")
}

// plan checks --spread against --db: a policy other than the default
// for one server is a mistake (the default is harmless: a resumed run
// sets every flag its manifest recorded).
func (f *spreadFlag) plan(db string) (string, error) {
	if !f.fs.Changed("spread") || f.policy.V == experiment.SpreadPolicies[0] {
		return f.policy.V, nil
	}
	u, err := dbms.ParseURL(db)
	if db == "" || (err == nil && u.Nodes() < 2) {
		return "", usagef("--spread %s: --db names one server; name a cluster's nodes, as in --db 'mysql://root@127.0.0.1:3306,127.0.0.1:3307,127.0.0.1:3308/dbgauge'", f.policy.V)
	}
	return f.policy.V, nil
}
