package tpcb

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Procedure is the TPC-B transaction as a server-side procedure in one
// engine's language (dbms.ProcedureLanguage): the DDL that creates it
// (after the tables) and its one call, with ? placeholders for (aid, tid,
// bid, delta), returning the new account balance. It is the default form
// where the engine has no defect, as DSBENCH ran it.
type Procedure = workload.Procedure

// ProcedureFor returns the procedure of an engine in its language, with
// the engine's defect, if it has one; an engine without procedures (or in
// a language written for none here) has no procedure form.
func ProcedureFor(e dbms.Engine) (*Procedure, error) {
	if pl, ok := e.(dbms.ProcedureLanguage); ok {
		lang, defect := pl.ProcedureLanguage()
		if p, ok := procedures[lang]; ok {
			q := *p
			q.Defect = defect
			return &q, nil
		}
	}
	return nil, fmt.Errorf("%s has no server-side procedures: use --form statements", e.Name())
}

// The bodies are the five statements of Transaction, in the same order, by
// procedure language.
var procedures = map[string]*Procedure{
	"plpgsql": {
		Drop: []string{"DROP FUNCTION IF EXISTS tpcb_txn(bigint, integer, integer, integer)"},
		Create: []string{`CREATE FUNCTION tpcb_txn(p_aid bigint, p_tid integer, p_bid integer, p_delta integer) RETURNS bigint AS $$
DECLARE bal bigint;
BEGIN
  UPDATE ` + Accounts + ` SET abalance = abalance + p_delta WHERE aid = p_aid;
  SELECT abalance INTO bal FROM ` + Accounts + ` WHERE aid = p_aid;
  UPDATE ` + Tellers + ` SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE ` + Branches + ` SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO ` + History + ` (tid, bid, aid, delta, mtime, filler) VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP, '` + HistoryFiller + `');
  RETURN bal;
END;
$$ LANGUAGE plpgsql`},
		Calls:   []string{"SELECT tpcb_txn(?, ?, ?, ?)"},
		Default: true,
	},
	"sql/psm": {
		Drop: []string{"DROP PROCEDURE IF EXISTS tpcb_txn"},
		Create: []string{`CREATE PROCEDURE tpcb_txn(IN p_aid BIGINT, IN p_tid INT, IN p_bid INT, IN p_delta INT)
BEGIN
  DECLARE bal BIGINT;
  UPDATE ` + Accounts + ` SET abalance = abalance + p_delta WHERE aid = p_aid;
  SELECT abalance INTO bal FROM ` + Accounts + ` WHERE aid = p_aid;
  UPDATE ` + Tellers + ` SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE ` + Branches + ` SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO ` + History + ` (tid, bid, aid, delta, mtime, filler) VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP, '` + HistoryFiller + `');
  SELECT bal;
END`},
		Calls:   []string{"CALL tpcb_txn(?, ?, ?, ?)"},
		Default: true,
	},
	"psql": {
		// No DROP ... IF EXISTS in Firebird 3's PSQL.
		Drop: []string{"EXECUTE BLOCK AS BEGIN IF (EXISTS(SELECT 1 FROM RDB$PROCEDURES WHERE RDB$PROCEDURE_NAME = 'TPCB_TXN')) THEN EXECUTE STATEMENT 'DROP PROCEDURE TPCB_TXN'; END"},
		Create: []string{`CREATE OR ALTER PROCEDURE tpcb_txn (p_aid BIGINT, p_tid INTEGER, p_bid INTEGER, p_delta INTEGER) RETURNS (bal BIGINT) AS
BEGIN
  UPDATE ` + Accounts + ` SET abalance = abalance + :p_delta WHERE aid = :p_aid;
  SELECT abalance FROM ` + Accounts + ` WHERE aid = :p_aid INTO :bal;
  UPDATE ` + Tellers + ` SET tbalance = tbalance + :p_delta WHERE tid = :p_tid;
  UPDATE ` + Branches + ` SET bbalance = bbalance + :p_delta WHERE bid = :p_bid;
  INSERT INTO ` + History + ` (tid, bid, aid, delta, mtime, filler) VALUES (:p_tid, :p_bid, :p_aid, :p_delta, CURRENT_TIMESTAMP, '` + HistoryFiller + `');
END`},
		Calls:   []string{"EXECUTE PROCEDURE tpcb_txn(?, ?, ?, ?)"},
		Default: true,
	},
}
