package mysql

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ProcedureLanguage = (*Engine)(nil)

// ProcedureLanguage: MariaDB's and MySQL's stored procedures follow SQL/PSM.
func (e *Engine) ProcedureLanguage() (language, defect string) { return "sql/psm", "" }
