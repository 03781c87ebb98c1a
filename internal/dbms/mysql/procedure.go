package mysql

import (
	"context"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.ProcedureLanguage = (*Engine)(nil)

// galeraProcedureDefect is why a transaction's work inside a stored
// procedure is not trusted on a Galera node. A conflict with a write set
// from another node aborts the local transaction (a "brute force" abort);
// when that abort reaches a statement inside the procedure, the error can
// be swallowed: CALL returns success, the work is rolled back, and the
// client's COMMIT commits nothing (Galera's own bug tracker: "no error
// returned if SP is BF-aborted", mysql-wsrep issue 191). It was seen on a
// three-node cluster here: acknowledged transactions missing, while the
// same work sent as single statements lost nothing.
const galeraProcedureDefect = "on a Galera cluster a conflict that aborts the transaction inside the procedure can be lost (CALL succeeds, the work is rolled back, COMMIT commits nothing): acknowledged transactions were seen missing"

// ProcedureLanguage: MariaDB's and MySQL's stored procedures follow
// SQL/PSM; on a Galera node they carry the defect above.
func (e *Engine) ProcedureLanguage() (language, defect string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if e.galera(ctx) {
		return "sql/psm", galeraProcedureDefect
	}
	return "sql/psm", ""
}
