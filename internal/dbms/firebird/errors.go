package firebird

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nakagami/firebirdsql"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Firebird status (GDS) codes dbgauge tells apart. The status vector holds
// several; the specific one is often not the first (335544569 "Dynamic SQL
// Error" leads most SQL errors), so classify looks at all of them.
const (
	gdsDeadlock           = 335544336 // deadlock; also leads every update conflict's vector
	gdsUpdateConflict     = 335544451 // update conflicts with concurrent update
	gdsIOError            = 335544344 // I/O error during "open" of the database file
	gdsLockConflict       = 335544345 // lock conflict on no wait transaction
	gdsLogin              = 335544472 // wrong user name or password
	gdsLockTimeout        = 335544510 // lock time-out on wait transaction
	gdsDsqlError          = 335544569 // dynamic SQL error
	gdsTableUnknown       = 335544580
	gdsTokenUnknown       = 335544634
	gdsColumnUnknown      = 335544578
	gdsNetworkError       = 335544721
	gdsNetReadError       = 335544726
	gdsNetWriteError      = 335544727
	gdsOpenFileError      = 335544734 // error while trying to open file
	gdsLostConnection     = 335544741
	gdsConnShutdown       = 335544648
	gdsAttShutdown        = 335544856
	gdsConcurrentTx       = 335544878 // concurrent transaction number is ...
	gdsStatementCancelled = 335544794
	gdsUnavailable        = 335544375 // unavailable database
	gdsShutdown           = 335544528 // database shut down
	gdsNetConnectError    = 335544722 // failed to establish a connection
	gdsMaxAttachments     = 335544744 // maximum user count exceeded
	gdsNetServerShutdown  = 335544971 // connection shut down by the server
)

func gdsCodes(err error) []int {
	var fe *firebirdsql.FbError
	if errors.As(err, &fe) {
		return fe.GDSCodes
	}
	return nil
}

func hasCode(codes []int, want ...int) bool {
	for _, w := range want {
		if slices.Contains(codes, w) {
			return true
		}
	}
	return false
}

// classify attaches a dbms.Class to a driver error; errors it cannot place
// pass unchanged (dbms.Classify then looks at network and context errors).
func classify(err error) error {
	if err == nil {
		return nil
	}
	codes := gdsCodes(err)
	switch {
	case hasCode(codes, gdsUpdateConflict, gdsLockConflict, gdsConcurrentTx):
		// A record another transaction changed: committed after this
		// snapshot, or still uncommitted under NO WAIT. Firebird 3 says
		// so with the same vector (deadlock, update conflict, concurrent
		// transaction) when two transactions wait for each other's
		// records, so those deadlocks count here too (docs/retries.md).
		return dbms.Wrap(dbms.Serialization, err)
	case hasCode(codes, gdsDeadlock):
		// The lock manager ended a cycle of waits for other locks than
		// records' (tables reserved by SNAPSHOT TABLE STABILITY).
		return dbms.Wrap(dbms.Deadlock, err)
	case hasCode(codes, gdsLockTimeout):
		return dbms.Wrap(dbms.Timeout, err)
	case hasCode(codes, gdsMaxAttachments):
		return dbms.Wrap(dbms.TooManyConnections, err)
	case hasCode(codes, gdsConnShutdown, gdsAttShutdown, gdsShutdown, gdsUnavailable, gdsNetServerShutdown):
		return dbms.Wrap(dbms.ServerUnavailable, err)
	case hasCode(codes, gdsNetConnectError):
		return dbms.Wrap(dbms.Refused, err)
	case hasCode(codes, gdsNetworkError, gdsNetReadError, gdsNetWriteError, gdsLostConnection):
		return dbms.Wrap(dbms.ConnectionLost, err)
	case hasCode(codes, gdsDsqlError, gdsTokenUnknown, gdsTableUnknown, gdsColumnUnknown):
		return dbms.Wrap(dbms.Syntax, err)
	case codes == nil && (errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return dbms.Wrap(dbms.ConnectionLost, err)
	}
	return err
}

// openError turns a failed attach into one line that names the problem and
// the fix. Every attach failure is the user's to fix (address, credentials,
// path) except a server-side fault, which stays unclassified.
func openError(u *dbms.URL, addr, path string, err error) error {
	codes := gdsCodes(err)
	switch {
	case codes == nil && dbms.IsNetwork(err):
		return dbms.Wrap(dbms.BadInput, dbms.Reword(fmt.Sprintf("cannot connect to Firebird at %s: %s (start the server or fix host:port in --db)", addr, oneLine(err)), err))
	case hasCode(codes, gdsLogin) || strings.HasPrefix(err.Error(), loginRefused):
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("Firebird at %s refused user %q: wrong user name or password (fix the user in --db or $ISC_USER; %s)", addr, userOf(u), u.PasswordFix(passwordPlaces)))
	case hasCode(codes, gdsIOError, gdsOpenFileError):
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("no database at %s on Firebird at %s (create it, or fix the path: firebird://user:pass@host:port//abs/path.fdb): %s", path, addr, oneLine(err)))
	case codes == nil:
		// The driver's own refusals (malformed DSN, unsupported options).
		return dbms.Wrap(dbms.BadInput, fmt.Errorf("cannot open --db %s: %s", u.Redacted(), oneLine(err)))
	}
	return dbms.Wrap(dbms.Classify(classify(err)), fmt.Errorf("open Firebird database %s at %s: %s", path, addr, oneLine(err)))
}

// loginRefused starts the driver's own error for a failed SRP login, which
// carries no status vector.
const loginRefused = "Your user name and password are not defined"

// oneLine joins the lines of a Firebird status message (one per status
// entry) for a one-line report.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}
