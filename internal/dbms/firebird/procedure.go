package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ProcedureLanguage = (*Engine)(nil)

// ProcedureLanguage: Firebird's PSQL, with the defect seen on 3.0.11 with
// 4 clients on one branch (update conflicts in SNAPSHOT WAIT or READ
// COMMITTED NO WAIT): now and then (about once in 5,000 commits) a
// committed transaction is applied only in part (its teller's and branch's
// deltas missing, or its history row) or not at all. The same happens
// through the official client library when the tellers and accounts
// reference their branch (scripts/repro/firebird-psql-atomicity.py) and
// with EXECUTE BLOCK, never with the same statements sent one by one, so
// it is the server's PSQL, not the Go driver.
func (e *Engine) ProcedureLanguage() (language, defect string) {
	return "psql", "Firebird 3.0.11 was seen to break atomicity in PSQL under concurrent update conflicts (now and then a committed transaction is applied only in part; scripts/repro/firebird-psql-atomicity.py)"
}
