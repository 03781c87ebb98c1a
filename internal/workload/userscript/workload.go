// Package userscript is the script workload: a user's own transactions,
// written as pgbench scripts (internal/workload/script runs them), swept
// by dsbench over scales on every engine, locally, from remote agents and
// on clusters: dbgauge dsbench --workload script --script FILE[@W].
//
// Its options are the scripts' contents, not their paths: a remote agent
// gets them from the master, and a resumed run reruns what its first part
// ran whatever became of the files. Each script is a transaction type,
// named by its file's base name (made unique); each command of a script is
// a timed statement of its type. The optional init script (--init) makes
// and fills the user's tables once per scale, with :scale set; the
// workload has no tables of its own and nothing to check beyond what the
// run counts (docs/pgbench-scripts.md §12).
package userscript

import (
	"context"

	"sync"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/script"
)

func init() { workload.Register(meta) }

var meta = workload.Meta{Name: "script", Title: "script",
	Description: "your own pgbench scripts (--script FILE[@WEIGHT], repeatable; --init FILE makes the tables at each scale)",
	New:         func() workload.Workload { return &Workload{} }}

// Workload is the script workload of one run: unconfigured it runs
// nothing (the command line binds its flags on it); Configure gives it
// its scripts.
type Workload struct {
	flags flagValues
	opts  Options
	// sources are the scripts (with their variants), types their names
	// and weights; init is the init script (nil: none); defines the -D
	// variables; protocol the run's.
	sources  []script.Source
	types    []workload.Type
	init     *script.Source
	defines  []script.Define
	protocol script.Protocol

	// programs are the scripts ready for one scale's load: the scale sets
	// :scale and the seed every client's generators.
	mu       sync.Mutex
	programs map[programKey]*program
}

func (w *Workload) Meta() workload.Meta { return meta }

// Scale of a script workload is whatever the user's init script makes of
// :scale.
func (w *Workload) Scale() workload.Scale {
	return workload.Scale{Unit: "what your init script makes of :scale"}
}

// Schema has no tables: the init script (Init) makes the user's.
func (w *Workload) Schema(int64) workload.Schema { return workload.Schema{} }

// Types are the scripts, in the order given, with their weights.
func (w *Workload) Types() []workload.Type { return w.types }

// Writes is true: whether a user's SQL writes (a SELECT may call a
// function that does) is not known, and a cluster's spread must send a
// writing load to its primary.
func (w *Workload) Writes() bool { return true }

// NewCheck checks nothing: the workload does not know what the user's
// tables should hold. Failures, their classes and retries are what the
// run counts of each transaction.
func (w *Workload) NewCheck(int64) workload.Check { return noCheck{} }

type noCheck struct{}

func (noCheck) Read(ctx context.Context, e dbms.Engine) error    { return nil }
func (noCheck) Verify(workload.Commits) []string                 { return nil }
func (noCheck) Cleanup(ctx context.Context, e dbms.Engine) error { return nil }

var (
	_ workload.Configurable = (*Workload)(nil)
	_ workload.Initializer  = (*Workload)(nil)
	_ workload.Statementer  = (*Workload)(nil)
	_ workload.Flagger      = (*Workload)(nil)
)
