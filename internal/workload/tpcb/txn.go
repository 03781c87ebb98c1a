package tpcb

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The TPC-B transaction as client statements, ? placeholders, in the order
// of TPC-B clause 1.2 (every transaction takes the locks in the same order:
// account, teller, branch).
var (
	StmtUpdateAccount = "UPDATE " + Accounts + " SET abalance = abalance + ? WHERE aid = ?"
	StmtSelectAccount = "SELECT abalance FROM " + Accounts + " WHERE aid = ?"
	StmtUpdateTeller  = "UPDATE " + Tellers + " SET tbalance = tbalance + ? WHERE tid = ?"
	StmtUpdateBranch  = "UPDATE " + Branches + " SET bbalance = bbalance + ? WHERE bid = ?"
	StmtInsertHistory = "INSERT INTO " + History + " (tid, bid, aid, delta, mtime, filler) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, '" + HistoryFiller + "')"
)

// StmtInsertTaggedHistory is the history insert of TaggedTransaction.
var StmtInsertTaggedHistory = "INSERT INTO " + History + " (tid, bid, aid, delta, mtime, filler) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, ?)"

// Statements lists the client statements, for preparing.
var Statements = []string{StmtUpdateAccount, StmtSelectAccount, StmtUpdateTeller, StmtUpdateBranch, StmtInsertHistory}

// TaggedStatements lists the client statements of TaggedTransaction.
var TaggedStatements = []string{StmtUpdateAccount, StmtSelectAccount, StmtUpdateTeller, StmtUpdateBranch, StmtInsertTaggedHistory}

// ErrNotOne marks an update that did not touch exactly one row: the data
// are not TPC-B's, a failure of the run, not a failed trial.
var ErrNotOne = fmt.Errorf("tpcb: a statement did not affect exactly one row")

// Transaction runs the TPC-B transaction in the client-statements form:
// begin, the five statements, commit. On error the caller rolls back.
func Transaction(ctx context.Context, tx dbms.Transactor, iso dbms.Isolation, in *Inputs) error {
	return transaction(ctx, tx, iso, in, StmtInsertHistory, in.Tid, in.Bid, in.Aid, in.Delta)
}

// TaggedTransaction is Transaction with the history row's filler set to
// tag (Tag): the client's mark on the row, by which a check finds out
// whether a transaction acknowledged to it was kept.
func TaggedTransaction(ctx context.Context, tx dbms.Transactor, iso dbms.Isolation, in *Inputs, tag string) error {
	return transaction(ctx, tx, iso, in, StmtInsertTaggedHistory, in.Tid, in.Bid, in.Aid, in.Delta, tag)
}

func transaction(ctx context.Context, tx dbms.Transactor, iso dbms.Isolation, in *Inputs, insert string, row ...any) error {
	if err := tx.Begin(ctx, iso); err != nil {
		return err
	}
	if err := one(tx.ExecArgs(ctx, StmtUpdateAccount, in.Delta, in.Aid)); err != nil {
		return err
	}
	if _, err := tx.QueryInt(ctx, StmtSelectAccount, in.Aid); err != nil {
		return err
	}
	if err := one(tx.ExecArgs(ctx, StmtUpdateTeller, in.Delta, in.Tid)); err != nil {
		return err
	}
	if err := one(tx.ExecArgs(ctx, StmtUpdateBranch, in.Delta, in.Bid)); err != nil {
		return err
	}
	if err := one(tx.ExecArgs(ctx, insert, row...)); err != nil {
		return err
	}
	return commit(ctx, tx)
}

// ErrCommitInDoubt marks a COMMIT lost with its connection
// (workload.ErrCommitInDoubt). A retry then applies the same inputs a
// second time, with a history row of its own.
var ErrCommitInDoubt = workload.ErrCommitInDoubt

// commit commits and marks a commit whose outcome the client cannot know.
func commit(ctx context.Context, tx dbms.Transactor) error { return workload.Commit(ctx, tx) }

func one(n int64, err error) error {
	if err == nil && n != 1 && n >= 0 {
		return dbms.Wrap(dbms.Invalid, fmt.Errorf("%w (%d rows)", ErrNotOne, n))
	}
	return err
}

// Select runs the SELECT transaction: one statement reading the balance of
// a uniformly random account, in autocommit.
func Select(ctx context.Context, tx dbms.Transactor, aid int64) error {
	_, err := tx.QueryInt(ctx, StmtSelectAccount, aid)
	return err
}

// CallProcedure runs the transaction in the server-side procedure form:
// one call inside a transaction at the requested isolation level.
func CallProcedure(ctx context.Context, tx dbms.Transactor, p *Procedure, iso dbms.Isolation, in *Inputs) error {
	if err := tx.Begin(ctx, iso); err != nil {
		return err
	}
	if _, err := tx.QueryInt(ctx, p.Calls[0], in.Aid, in.Tid, in.Bid, in.Delta); err != nil {
		return err
	}
	return commit(ctx, tx)
}
