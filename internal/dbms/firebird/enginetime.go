package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.EngineTimeless = (*Engine)(nil)

// NoEngineTime: Firebird's monitoring tables say when a statement
// started (MON$STATEMENTS.MON$TIMESTAMP) and what it read and wrote
// (MON$RECORD_STATS, MON$IO_STATS), not how long it ran; only the trace
// API times statements, from a separate service session.
func (e *Engine) NoEngineTime() string {
	return "Firebird's monitoring tables give a statement's start and its reads and writes, not its duration (only its trace service times statements)"
}
