package script

import (
	"errors"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// RunError is a transaction's failure: where in which script, and why. Its
// class (dbms.Classify) is the engine error's; a failure of the script
// itself (an expression's error, \gset without exactly one row, a
// transaction left open at the end) is dbms.Invalid: pgbench aborts the
// client on these, and they would fail every try.
type RunError struct {
	Script  string    // the script's file name
	Command int       // the command's index in the script
	Pos     parse.Pos // where the command starts
	Text    string    // the command as pgbench shows it
	Err     error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("%s:%s: %s: %v", e.Script, e.Pos, e.Text, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// scriptError is a failure of the script itself, class dbms.Invalid.
func scriptError(format string, args ...any) error {
	return dbms.Wrap(dbms.Invalid, fmt.Errorf(format, args...))
}

// errOpenTransaction ends a script that left its transaction open.
var errOpenTransaction = errors.New("end of script reached without completing the last transaction: end it with COMMIT, END or ROLLBACK on every path through the script")
