// Package tpcb describes the TPC-B-like workload of the DSBENCH stress sweep
// (seed 001, docs/dsbench.md): its tables and rows per scale, the input
// rules of TPC-B 2.0, the transaction as client statements and as a
// server-side procedure per engine, the SELECT transaction, and the
// consistency conditions. It describes; the driver runs it.
package tpcb

import (
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Table names (the contract: they stay after a run unless --drop).
const (
	Branches = "tpcb_branches"
	Tellers  = "tpcb_tellers"
	Accounts = "tpcb_accounts"
	History  = "tpcb_history"
)

// Per scale unit (TPC-B clause 4.2).
const (
	TellersPerBranch  = 10
	AccountsPerBranch = 100_000
)

// Tables lists the four tables in creation order.
var Tables = []string{Branches, Tellers, Accounts, History}

// Fillers make every row at least TPC-B's 100 bytes (docs/dsbench.md §1 DECISION:
// filled, not NULL as pgbench leaves them).
const (
	branchFillerLen  = 88
	tellerFillerLen  = 84
	accountFillerLen = 84
	historyFillerLen = 22
)

// Schema returns the table definitions at scale x. Account ids need 64
// bits from scale 20,000 on (100,000 x 20,000 > 2^31).
func Schema(x int64) []dbms.Table {
	aid := dbms.Int
	if x >= 20_000 {
		aid = dbms.BigInt
	}
	return []dbms.Table{
		{Name: Branches, Columns: []dbms.Column{{Name: "bid", Type: dbms.Int}, {Name: "bbalance", Type: dbms.BigInt}, {Name: "filler", Type: dbms.Char, Len: branchFillerLen}}},
		{Name: Tellers, Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "tbalance", Type: dbms.BigInt}, {Name: "filler", Type: dbms.Char, Len: tellerFillerLen}}},
		{Name: Accounts, Columns: []dbms.Column{{Name: "aid", Type: aid}, {Name: "bid", Type: dbms.Int}, {Name: "abalance", Type: dbms.BigInt}, {Name: "filler", Type: dbms.Char, Len: accountFillerLen}}},
		{Name: History, Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "aid", Type: aid}, {Name: "delta", Type: dbms.Int}, {Name: "mtime", Type: dbms.Timestamp}, {Name: "filler", Type: dbms.Char, Len: historyFillerLen}}},
	}
}

// PrimaryKeys are added after population, a table at a time.
var PrimaryKeys = []struct{ Table, Column string }{
	{Branches, "bid"}, {Tellers, "tid"}, {Accounts, "aid"},
}

// ForeignKeys are added after the primary keys.
var ForeignKeys = []struct{ Table, Column, RefTable, RefColumn string }{
	{Tellers, "bid", Branches, "bid"},
	{Accounts, "bid", Branches, "bid"},
}

// scale is what a scale of both workloads means (TPC-B clause 4.2).
var scale = workload.Scale{Unit: "1 branch, 10 tellers and 100,000 accounts", Max: 100_000, Why: "10 billion accounts", RowPerUnit: true}

// schema is Schema with the initial rows and the keys, as the sweep
// populates it.
func schema(x int64) workload.Schema {
	s := workload.Schema{}
	for _, t := range Schema(x) {
		wt := workload.Table{Table: t}
		if t.Name != History {
			wt.Rows = NewRows(t.Name, x).Count()
			wt.Fill = func() dbms.RowSource { return NewRows(t.Name, x) }
		}
		s.Tables = append(s.Tables, wt)
	}
	for _, pk := range PrimaryKeys {
		s.PrimaryKeys = append(s.PrimaryKeys, workload.PrimaryKey{Table: pk.Table, Columns: []string{pk.Column}})
	}
	for _, fk := range ForeignKeys {
		s.ForeignKeys = append(s.ForeignKeys, workload.ForeignKey(fk))
	}
	return s
}
