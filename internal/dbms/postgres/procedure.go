package postgres

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ProcedureLanguage = (*Engine)(nil)

// ProcedureLanguage: PostgreSQL's functions in PL/pgSQL.
func (e *Engine) ProcedureLanguage() (language, defect string) { return "plpgsql", "" }
