package pgbench

import "github.com/dbgauge/dbgauge/internal/dbms"

// pgbench's tables and their sizes per unit of scale.
const (
	Branches = "pgbench_branches"
	Tellers  = "pgbench_tellers"
	Accounts = "pgbench_accounts"
	History  = "pgbench_history"

	TellersPerBranch  = 10
	AccountsPerBranch = 100_000
	// bigIDScale is the scale from which account ids need 64 bits
	// (pgbench's SCALE_32BIT_THRESHOLD).
	bigIDScale = 20_000
)

// dropOrder has every table after the tables whose foreign keys refer to
// it, so that each drop or delete leaves no dangling reference.
var dropOrder = []string{History, Accounts, Tellers, Branches}

// tables are pgbench's four tables at scale, with its column types and
// filler widths, in its order of creation (history, tellers, accounts,
// branches). The key column, first in each table but the history, is
// NOT NULL in pgbench's tables (createTables).
func tables(scale int) []dbms.Table {
	aid := dbms.Int
	if scale >= bigIDScale {
		aid = dbms.BigInt
	}
	return []dbms.Table{
		{Name: History, Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "aid", Type: aid}, {Name: "delta", Type: dbms.Int}, {Name: "mtime", Type: dbms.Timestamp}, {Name: "filler", Type: dbms.Char, Len: 22}}},
		{Name: Tellers, Columns: []dbms.Column{{Name: "tid", Type: dbms.Int}, {Name: "bid", Type: dbms.Int}, {Name: "tbalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 84}}},
		{Name: Accounts, Columns: []dbms.Column{{Name: "aid", Type: aid}, {Name: "bid", Type: dbms.Int}, {Name: "abalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 84}}},
		{Name: Branches, Columns: []dbms.Column{{Name: "bid", Type: dbms.Int}, {Name: "bbalance", Type: dbms.Int}, {Name: "filler", Type: dbms.Char, Len: 88}}},
	}
}

// primaryKeys are the p step's keys; foreignKeys the f step's, in
// pgbench's order.
var (
	primaryKeys = []struct{ table, column string }{{Branches, "bid"}, {Tellers, "tid"}, {Accounts, "aid"}}
	foreignKeys = []struct{ table, column, ref, refColumn string }{
		{Tellers, "bid", Branches, "bid"},
		{Accounts, "bid", Branches, "bid"},
		{History, "bid", Branches, "bid"},
		{History, "tid", Tellers, "tid"},
		{History, "aid", Accounts, "aid"},
	}
)

// nullFiller: pgbench 15 inserts branches and tellers without their
// filler, which stays NULL; accounts get an empty filler.
var nullFiller = map[string]bool{Branches: true, Tellers: true}

// rows yields the initial rows of branches, tellers or accounts at a
// scale, in key order, with balances 0 and empty fillers, as pgbench's
// client-side generation makes them. It implements dbms.RowSource.
type rows struct {
	table string
	n, i  int64
}

func newRows(table string, scale int) *rows {
	n := int64(scale)
	switch table {
	case Tellers:
		n *= TellersPerBranch
	case Accounts:
		n *= AccountsPerBranch
	}
	return &rows{table: table, n: n}
}

func (r *rows) Next(row []any) bool {
	if r.i >= r.n {
		return false
	}
	r.i++
	id := r.i
	switch r.table {
	case Branches:
		row[0], row[1], row[2] = id, int64(0), ""
	case Tellers:
		row[0], row[1], row[2], row[3] = id, (id-1)/TellersPerBranch+1, int64(0), ""
	case Accounts:
		row[0], row[1], row[2], row[3] = id, (id-1)/AccountsPerBranch+1, int64(0), ""
	}
	return true
}

var _ dbms.RowSource = (*rows)(nil)
