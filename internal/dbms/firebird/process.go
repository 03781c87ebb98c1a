package firebird

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.ProcessReporter = (*Engine)(nil)
	_ dbms.Explainer       = (*Engine)(nil)
)

// QueryProcess is the server process serving this attachment, as the
// monitoring tables say (SuperServer: one process, threads inside).
func (e *Engine) QueryProcess(ctx context.Context) (dbms.Process, error) {
	rows, err := e.QueryRows(ctx, "SELECT MON$SERVER_PID FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = CURRENT_CONNECTION")
	if err != nil {
		return dbms.Process{}, err
	}
	if len(rows) != 1 {
		return dbms.Process{}, errors.New("firebird: no row for this attachment in MON$ATTACHMENTS")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(rows[0][0]))
	if err != nil {
		return dbms.Process{}, err
	}
	return dbms.Process{PID: pid, How: "MON$ATTACHMENTS.MON$SERVER_PID"}, nil
}

// Explain prepares the query without running it and reads its plan from
// MON$STATEMENTS.MON$EXPLAINED_PLAN (the Go driver does not expose
// isc_info_sql_get_plan). It does so on an attachment of its own that it
// then closes: the driver does not free a statement prepared and closed
// through database/sql here, and a prepared statement keeps its tables "in
// use" against DDL (CREATE INDEX, DROP TABLE) until its attachment ends.
// The new attachment's first transaction also has a fresh monitoring
// snapshot (the tables are a snapshot taken once per transaction).
func (e *Engine) Explain(ctx context.Context, query string) (string, error) {
	c, err := e.DB.Conn(ctx)
	if err != nil {
		return "", e.ClassifyErr(err)
	}
	defer dbms.DiscardConn(c) // the attachment ends, not pooled
	tx, err := c.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return "", e.ClassifyErr(err)
	}
	defer tx.Rollback()
	if _, err := tx.PrepareContext(ctx, query); err != nil {
		return "", e.ClassifyErr(err)
	}
	var text sql.NullString
	err = tx.QueryRowContext(ctx, "SELECT MON$EXPLAINED_PLAN FROM MON$STATEMENTS WHERE MON$ATTACHMENT_ID = CURRENT_CONNECTION AND MON$SQL_TEXT = ?", query).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errors.New("firebird: the prepared statement is not in MON$STATEMENTS")
	}
	if err != nil {
		return "", e.ClassifyErr(err)
	}
	return strings.TrimSpace(text.String) + "\n", nil
}
