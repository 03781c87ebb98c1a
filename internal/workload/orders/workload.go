// Package orders is the order-entry workload, TPC-C-like: nine tables per
// warehouse with TPC-C's table and column names, its five transactions in
// its mix, with or without its keying and think times, its twelve
// consistency conditions and the audit of its inputs. A scale is a number
// of warehouses. Results are TPC-C-like, never TPC results: the headline
// is new orders per minute read from the database (NOPM), not tpmC.
// docs/orders.md says what is and is not the specification.
package orders

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dbgauge/dbgauge/internal/workload"
)

// Name is the workload's name (--workload orders).
const Name = "orders"

var meta = workload.Meta{Name: Name, Title: "Order entry (TPC-C-like)",
	Description: "order entry, TPC-C-like: warehouses, five transactions in TPC-C's mix, its twelve consistency conditions",
	New:         func() workload.Workload { return &Workload{opts: Options{Mix: DefaultMix}} }}

func init() { workload.Register(meta) }

// Workload is one run's order-entry workload.
type Workload struct {
	opts  Options
	flags flagValues
}

var (
	_ workload.Configurable = (*Workload)(nil)
	_ workload.Flagger      = (*Workload)(nil)
	_ workload.Counter      = (*Workload)(nil)
	_ workload.Waiter       = (*Workload)(nil)
	_ workload.LoadPlanner  = (*Workload)(nil)
	_ workload.Statementer  = (*Workload)(nil)
	_ workload.Varianter    = (*Workload)(nil)
)

func (w *Workload) Meta() workload.Meta { return meta }

// maxWarehouses bounds a scale: about 100 MB a warehouse, so 10 TB.
const maxWarehouses = 100_000

func (w *Workload) Scale() workload.Scale {
	return workload.Scale{Unit: "1 warehouse: 10 districts, 30,000 customers and orders, about 300,000 order lines, 100,000 stock rows (about 100 MB)",
		Max: maxWarehouses, Why: "about 10 TB", RowPerUnit: true}
}

// Types are the five transactions with the run's mix as weights.
func (w *Workload) Types() []workload.Type { return Types(w.opts.Mix) }

func (w *Workload) Writes() bool { return true }

// Variant labels the mode in every output (workload.Varianter).
func (w *Workload) Variant() string {
	if w.opts.Waits {
		return "keyed: TPC-C keying and think times"
	}
	return "no waits"
}

// Schema is the nine tables at wh warehouses, their rows from DataSeed.
func (w *Workload) Schema(wh int64) workload.Schema { return Schema(wh) }

// NewCheck checks conditions 1-4 after every cycle (all but 11 with
// --check-all), all twelve right after the load, all but 11 at the
// scale's end, and derives the workload's figures.
func (w *Workload) NewCheck(wh int64) workload.Check {
	each := CoreConditions
	if w.opts.CheckAll {
		each = AfterRunConditions
	}
	return newFigureCheck(NewCheck(each...), wh, w.opts.Waits)
}

// Statements are each type's statements by name (workload.Statementer),
// the same on every engine.
func (w *Workload) Statements(string) [][]string { return StatementNames() }

// CheckLoad: in the keyed mode, ten terminals per warehouse of the
// largest scale (those of a warehouse a smaller scale lacks stay idle), and
// no open loop (the terminals pace themselves).
func (w *Workload) CheckLoad(l workload.Load) error {
	if !w.opts.Waits {
		return nil
	}
	if l.Rate > 0 {
		return fmt.Errorf("--rate with --waits: the keyed mode's terminals pace themselves with their keying and think times; leave out --rate, or --waits")
	}
	most := slices.Max(l.Scales)
	if want := int64(terminalsPerWarehouse) * most; int64(l.Clients) != want {
		return fmt.Errorf("--threads: %d client threads over every node, and --waits runs %d terminals per warehouse: give --threads %d (x --nodes) for up to %d warehouses, or leave out --waits",
			l.Clients, terminalsPerWarehouse, want, most)
	}
	return nil
}

// terminalsPerWarehouse is the keyed mode's (clause 4.2.2).
const terminalsPerWarehouse = 10

// keying and thinkMean are each type's keying time and mean think time
// (clause 5.2.5.7), in Types' order.
var (
	keying    = [numTypes]time.Duration{18 * time.Second, 3 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
	thinkMean = [numTypes]time.Duration{12 * time.Second, 12 * time.Second, 10 * time.Second, 5 * time.Second, 5 * time.Second}
)

// Waits is the keyed mode's pause after a transaction of type typ (and,
// for typ -1, before a terminal's first transaction of a cycle): its
// keying time and a think time drawn from a negative exponential of the
// type's mean, capped at ten times the mean (clause 5.2.5.4). The keying
// time of the next transaction is taken after this one: the sum between
// two transactions is the same in distribution, the type of the next
// being drawn inside the client.
func (w *Workload) Waits() func(typ int, r *rand.Rand) time.Duration {
	if !w.opts.Waits {
		return nil
	}
	// A terminal's mean time between transactions under the mix: its
	// phase at a cycle's start is drawn uniformly below it, so that the
	// terminals do not all begin at once (which would overstate the
	// rate of a short cycle).
	var cycle time.Duration
	for t, m := range w.opts.Mix {
		cycle += time.Duration(m) * (keying[t] + thinkMean[t]) / 100
	}
	return func(typ int, r *rand.Rand) time.Duration {
		if typ == -1 {
			return time.Duration(r.Int64N(int64(cycle)))
		}
		if typ < 0 || typ >= numTypes {
			return 0
		}
		think := time.Duration(r.ExpFloat64() * float64(thinkMean[typ]))
		return keying[typ] + min(think, 10*thinkMean[typ])
	}
}
