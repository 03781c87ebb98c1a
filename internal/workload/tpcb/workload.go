package tpcb

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The two workloads of the package: the TPC-B transaction, the sweep's
// default, and the SELECT of one account on the same tables.
func init() {
	workload.Register(tpcbMeta)
	workload.Register(selectMeta)
}

var (
	tpcbMeta = workload.Meta{Name: "tpcb", Title: "TPC-B", Default: true,
		Description: "the TPC-B transaction: update an account, its teller and branch, insert a history row",
		New:         func() workload.Workload { return tpcbLoad{} }}
	selectMeta = workload.Meta{Name: "select", Title: "SELECT",
		Description: "read one uniformly random account's balance, on the TPC-B tables",
		New:         func() workload.Workload { return selectLoad{} }}
)

// tables is what both workloads share: the tables, the scale, and the
// procedure an earlier run may have left on them.
type tables struct{}

func (tables) Scale() workload.Scale            { return scale }
func (tables) Schema(x int64) workload.Schema   { return schema(x) }
func (tables) DropFirst(e dbms.Engine) []string { return dropFirst(e) }

// dropFirst drops the procedure an earlier run left: it depends on the
// tables, so it goes first, whatever this run's form.
func dropFirst(e dbms.Engine) []string {
	if p, err := ProcedureFor(e); err == nil {
		return p.Drop
	}
	return nil
}

// tpcbLoad is the TPC-B transaction (TPC-B 2.0 clause 1.2), in the
// client-statements form or as a server-side procedure, optionally
// tagged.
type tpcbLoad struct{ tables }

func (tpcbLoad) Meta() workload.Meta    { return tpcbMeta }
func (tpcbLoad) Types() []workload.Type { return []workload.Type{{Name: "tpcb", Weight: 1}} }
func (tpcbLoad) Writes() bool           { return true }
func (tpcbLoad) NewClient(cfg workload.ClientConfig) workload.Client {
	return &tpcbClient{cfg: cfg}
}
func (tpcbLoad) NewCheck(int64) workload.Check { return &check{writes: true} }

// Procedure is the transaction as the engine's procedure.
func (tpcbLoad) Procedure(e dbms.Engine) (*workload.Procedure, error) { return ProcedureFor(e) }

// ReadTags reads the tags of the history rows.
func (tpcbLoad) ReadTags(ctx context.Context, e dbms.Engine) (map[int][]int64, error) {
	tags, _, err := ReadTags(ctx, e)
	return tags, err
}

// selectLoad is the SELECT transaction: one statement in autocommit,
// nothing written.
type selectLoad struct{ tables }

func (selectLoad) Meta() workload.Meta    { return selectMeta }
func (selectLoad) Types() []workload.Type { return []workload.Type{{Name: "select", Weight: 1}} }
func (selectLoad) Writes() bool           { return false }
func (selectLoad) NewClient(cfg workload.ClientConfig) workload.Client {
	return &selectClient{prepare: cfg.Prepare}
}
func (selectLoad) NewCheck(int64) workload.Check { return &check{} }

var (
	_ workload.Procedurer = tpcbLoad{}
	_ workload.Tagger     = tpcbLoad{}
	_ workload.Dropper    = tpcbLoad{}
	_ workload.Dropper    = selectLoad{}
)
