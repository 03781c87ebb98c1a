package tpcb

import (
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	branchFiller  = strings.Repeat("b", branchFillerLen)
	tellerFiller  = strings.Repeat("t", tellerFillerLen)
	accountFiller = strings.Repeat("a", accountFillerLen)
	// HistoryFiller fills the history rows the transaction inserts.
	HistoryFiller = strings.Repeat("h", historyFillerLen)
)

// Rows streams the initial rows of table at scale x (balances 0, fillers
// filled), in key order; the history starts empty. It implements
// dbms.RowSource.
type Rows struct {
	table string
	n, i  int64
}

// NewRows returns the rows of one of branches, tellers, accounts.
func NewRows(table string, x int64) *Rows {
	n := int64(0)
	switch table {
	case Branches:
		n = x
	case Tellers:
		n = x * TellersPerBranch
	case Accounts:
		n = x * AccountsPerBranch
	}
	return &Rows{table: table, n: n}
}

// Count is the number of rows the source yields.
func (r *Rows) Count() int64 { return r.n }

// Next fills row with the next row; false at the end.
func (r *Rows) Next(row []any) bool {
	if r.i >= r.n {
		return false
	}
	id := r.i + 1
	r.i++
	switch r.table {
	case Branches:
		row[0], row[1], row[2] = id, int64(0), branchFiller
	case Tellers:
		row[0], row[1], row[2], row[3] = id, (id-1)/TellersPerBranch+1, int64(0), tellerFiller
	case Accounts:
		row[0], row[1], row[2], row[3] = id, (id-1)/AccountsPerBranch+1, int64(0), accountFiller
	}
	return true
}

var _ dbms.RowSource = (*Rows)(nil)
