package dbms

// PrivateDatabase is an engine whose database several sessions of
// dbgauge cannot share (one process owns a DuckDB file, and an in-memory
// database is private to its connection). Experiments whose users need
// one database (multiuser) refuse it as bad input with the reason
// PrivateDatabase gives, before anything is written.
type PrivateDatabase interface {
	PrivateDatabase() string
}
