// Package tpcb describes the TPC-B-like workload of the DSBENCH stress sweep
// (seed 001, docs/dsbench.md): its tables and rows per scale, the input
// rules of TPC-B 2.0, the transaction as client statements and as a
// server-side procedure per engine, the SELECT transaction, and the
// consistency conditions. It describes; the driver runs it.
package tpcb

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
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

// CheckScale validates a scale value.
func CheckScale(x int64) error {
	if x < 1 {
		return fmt.Errorf("scale %d: must be at least 1", x)
	}
	if x > 100_000 {
		return fmt.Errorf("scale %d: above 100000 (10 billion accounts)", x)
	}
	return nil
}
