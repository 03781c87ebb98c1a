package dbms

// ProcedureLanguage is an engine with server-side stored procedures.
// Workloads that ship a procedure (the TPC-B transaction of
// internal/workload/tpcb) call it to choose the text they wrote for the
// engine's language; an engine without it has no procedure form.
type ProcedureLanguage interface {
	// ProcedureLanguage names the language its procedures are written in
	// ("plpgsql", "sql/psm", "psql"). defect, when not "", says why the
	// engine's procedures are not to be made a default: the engine was seen
	// to break a transaction's atomicity in them.
	ProcedureLanguage() (language, defect string)
}
