package mysql

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ProcedureLanguage = (*Engine)(nil)

// ProcedureLanguage: MariaDB's and MySQL's stored procedures follow
// SQL/PSM. On a Galera node too: a conflict that aborts the transaction
// inside the procedure (a brute-force abort) fails the CALL or the
// COMMIT, since MariaDB 10.4 (MDEV-20225). Acknowledged transactions
// once seen missing there were the client's doing: a COMMIT sent after a
// prepare that had carried the abort (dbms.SQLBase.execControl).
func (e *Engine) ProcedureLanguage() (language, defect string) { return "sql/psm", "" }
