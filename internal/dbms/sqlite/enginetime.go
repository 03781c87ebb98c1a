package sqlite

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.EngineTimeless = (*Engine)(nil)

// NoEngineTime: SQLite runs inside the client's process and keeps no
// account of its statements' time (sqlite3_profile's callback is the
// client's own clock around the step calls): the client's time is all
// there is.
func (e *Engine) NoEngineTime() string {
	return "SQLite keeps no time of its own per statement (it runs inside dbgauge's process: the client's time is the engine's plus the driver's)"
}
