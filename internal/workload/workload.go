// Package workload is what a load measures: a workload's tables and their
// rows at a scale, its transaction types with their weights, the client
// that runs one transaction per call, and the consistency check after a
// cycle. Each workload is a package under internal/workload that
// registers itself by name from its init (Register); internal/workload/all
// imports every one. The sweep, its remote agents, clusters, the live page
// and the reports ask the registry and the workload, and never test for a
// name.
//
// A workload describes; it never drives: the driver owns the loop, the
// clock, pacing, retries and errors, and the experiment owns population
// order, timing and the checks' retries. Optional abilities (a
// server-side procedure form, tags on acknowledged writes, objects to drop
// before the tables) are small interfaces found by type assertion
// (abilities.go).
package workload

import (
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Workload is one registered workload, as its Meta.New made it for a run.
// Its methods are called from the run's goroutine; its clients are
// called by their driver threads (Client).
type Workload interface {
	// Meta is the workload's registration.
	Meta() Meta
	// Scale says what one unit of scale is and bounds it.
	Scale() Scale
	// Schema is what the database holds at scale x: the tables in
	// creation order (dropped in reverse), their initial rows, and the
	// keys added after the rows.
	Schema(x int64) Schema
	// Types are the transaction types a client runs, in a fixed order: a
	// client's Run returns the index of the one it ran.
	Types() []Type
	// Writes says whether any transaction writes: a cluster's spread sends
	// a writing load to the primary, and a load that writes nothing has no
	// acknowledged writes to check.
	Writes() bool
	// NewClient is one driver thread's client.
	NewClient(cfg ClientConfig) Client
	// NewCheck is the consistency check of one scale's cycles, made once
	// the scale is populated and called after each cycle.
	NewCheck(x int64) Check
}

// Meta is a workload's registration: its names and how to make one.
type Meta struct {
	// Name selects the workload: --workload NAME, the "mode" of stored
	// results, the job sent to remote agents. Lower case, no spaces.
	Name string
	// Title names it for a reader, in titles of tables and pages
	// ("TPC-B"); Name when empty.
	Title string
	// Description is one line for the help and the forms.
	Description string
	// Default marks the workload a sweep runs when none is named (one
	// workload only).
	Default bool
	// New makes the workload for one run.
	New func() Workload
}

// Scale is what the scales of a sweep mean for a workload.
type Scale struct {
	// Unit is what one unit of scale holds, for the help ("1 branch, 10
	// tellers, 100,000 accounts").
	Unit string
	// Max is the largest scale the workload accepts (0: no bound).
	Max int64
	// Why says what Max protects ("10 billion accounts").
	Why string
	// RowPerUnit: every writing transaction updates one row of a table
	// that holds one row per unit of scale (TPC-B's branches), so at
	// scales up to the number of clients they collide on those rows: the
	// sweep names that range of its curve (docs/dsbench.md).
	RowPerUnit bool
}

// Check refuses a scale the workload cannot build; the error says why,
// the caller names the scale.
func (s Scale) Check(x int64) error {
	if x < 1 {
		return fmt.Errorf("must be at least 1")
	}
	if s.Max > 0 && x > s.Max {
		if s.Why != "" {
			return fmt.Errorf("above %d (%s)", s.Max, s.Why)
		}
		return fmt.Errorf("above %d", s.Max)
	}
	return nil
}

// Schema is a workload's database at one scale.
type Schema struct {
	// Tables in creation order; they are dropped in reverse order
	// (children before parents).
	Tables []Table
	// PrimaryKeys are added after every table is filled, then the
	// secondary Indexes the transactions need, then the ForeignKeys (an
	// engine that cannot add foreign keys later is noted, not failed).
	PrimaryKeys []PrimaryKey
	Indexes     []Index
	ForeignKeys []ForeignKey
}

// Names are the schema's table names, in creation order.
func (s Schema) Names() []string {
	out := make([]string, len(s.Tables))
	for i, t := range s.Tables {
		out[i] = t.Name
	}
	return out
}

// Table is one table and its initial rows.
type Table struct {
	dbms.Table
	// Rows is the number of initial rows; Fill streams them in key order
	// through the engine's bulk path (nil with Rows 0: the table starts
	// empty). Each call of Fill starts from the first row.
	Rows int64
	Fill func() dbms.RowSource
	// Parts, with FillPart, splits the rows into parts
	// 0..Parts-1 (TPC-C's warehouses, say) that may be loaded at the same
	// time on several sessions (dbms.ConcurrentLoader), in any order:
	// FillPart(p) streams the rows of part p only, the union of all parts
	// is the table, and Rows is still the total. Fill may then be nil.
	// FillPart is called from the population's goroutines, one call per
	// part, and each source is read by one goroutine.
	Parts    int
	FillPart func(part int) dbms.RowSource
}

// Partitioned says the table's rows come in parts (Parts, FillPart).
func (t Table) Partitioned() bool { return t.Parts >= 1 && t.FillPart != nil }

// Filled says the table has initial rows to load.
func (t Table) Filled() bool { return t.Fill != nil || t.Partitioned() }

// PrimaryKey is a table's primary key.
type PrimaryKey struct {
	Table   string
	Columns []string
}

// Index is a secondary index on Columns of Table, in that order, built
// after the primary keys.
type Index struct {
	Table, Name string
	Columns     []string
	Unique      bool
}

// ForeignKey is one column referencing another table's column.
type ForeignKey struct {
	Table, Column, RefTable, RefColumn string
}

// Type is one transaction type: its name in tables and results, its
// share of the transactions (Weight over the sum of the types' weights),
// and the limit its response times must keep, if it has one.
type Type struct {
	Name   string
	Weight int
	Limit  Limit
}

// Limit is a type's response-time limit: the Percentile-th percentile of
// its committed transactions' residence times at most Max (a benchmark's
// service-level condition on its transaction types). The zero Limit is
// none. The
// sweep judges each scale's percentile against it and reports the verdict
// beside the type's times; a miss does not make the run inconsistent.
type Limit struct {
	Percentile float64
	Max        time.Duration
}
