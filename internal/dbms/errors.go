package dbms

import (
	"context"
	"errors"
	"net"
	"syscall"
)

// Class says what kind of failure an engine error is, so callers can decide
// to retry, reconnect, stop the run, or report the user's mistake.
type Class int

const (
	// Other is an error nobody classified: treat as fatal for the operation.
	Other Class = iota
	// BadInput is the user's mistake: bad URL, unreachable server, wrong
	// password, missing database. The CLI exits 2 on it.
	BadInput
	// Serialization is a transaction the engine could not serialize with
	// concurrent ones (PostgreSQL 40001, a snapshot's write-write conflict,
	// SQLite's busy database): running the whole transaction again may
	// succeed. pgbench counts these as "serialization failures".
	// docs/retries.md has every engine's errors of this class.
	Serialization
	// ConnectionLost means the session is gone: reconnect before going on.
	ConnectionLost
	// Timeout is a statement timeout, or a lock timeout the user asked for
	// (PostgreSQL's lock_timeout, Firebird's LOCK TIMEOUT). MariaDB's lock
	// wait timeout, always on, is a Deadlock (docs/retries.md says why).
	Timeout
	// Syntax is SQL the engine rejected: a bug in dbgauge or a dialect gap.
	Syntax
	// Unsupported is an ability the engine lacks.
	Unsupported
	// Invalid is data that break the benchmark's assumptions (an update
	// that touched no row): the run must stop, it is no failed trial.
	Invalid
	// Refused is a connection attempt nothing accepted: no server listens
	// at the address (down, or restarting). At the start of a run it is
	// the user's mistake and arrives as BadInput; once a run has measured
	// it is a fault that may pass.
	Refused
	// ServerUnavailable is a server that is shutting down, starting up,
	// recovering from a crash, or ended the session for one of these:
	// reconnect, after a while.
	ServerUnavailable
	// TooManyConnections is a server at its limit of sessions: a
	// connection may be had once others close.
	TooManyConnections
	// Deadlock is a transaction the engine failed because of lock waits:
	// one chosen to break a cycle of them (PostgreSQL 40P01, MariaDB
	// 1213), or, on MariaDB, one that waited for a row lock beyond
	// innodb_lock_wait_timeout (1205). Running the whole transaction again
	// may succeed. pgbench counts these as "deadlock failures".
	Deadlock

	// NumClasses is the number of classes: an array indexed by Class
	// counts without a map.
	NumClasses int = iota
)

// classNames are the names results.json, the journal and the live stream
// store counts under. Runs taken before serialization and deadlock were
// told apart stored both as "conflict", a name no class has any more:
// their counts are read and reported under it as they are.
var classNames = [NumClasses]string{"other", "bad_input", "serialization", "connection_lost", "timeout", "syntax", "unsupported", "invalid",
	"connection_refused", "server_unavailable", "too_many_connections", "deadlock"}

func (c Class) String() string { return classNames[c] }

// Transient reports whether c is a fault of the connection or of the
// server's availability that time may cure: the session is gone or could
// not be made, and a new one may succeed later. Load clients that retry
// back off on these and reconnect; other classes are answers of a running
// server.
func (c Class) Transient() bool {
	return c == ConnectionLost || c == Refused || c == ServerUnavailable || c == TooManyConnections
}

// Retryable reports whether c is one of the two failures pgbench retries
// (up to --max-tries): a serialization failure or a deadlock. The engine
// rolled the transaction back, or the caller must; running the whole
// transaction again, from its start, may succeed.
func (c Class) Retryable() bool { return c == Serialization || c == Deadlock }

// SessionFault tells whether an error of this class is the session's
// trouble (a lost connection, a server gone silent or away) rather than
// the statement's: what a side task such as reading the engine's own
// time must pass on as the run's fault instead of doing without.
func (c Class) SessionFault() bool { return c.Transient() || c == Timeout }

// Error is an engine error with its class.
type Error struct {
	Class Class
	Err   error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Classify returns the class of err: the one an adapter attached, or one
// derived from generic network and context errors.
func Classify(err error) Class {
	if err == nil {
		return Other
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	if errors.Is(err, ErrNotSupported) {
		return Unsupported
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Timeout
	}
	if IsNetwork(err) {
		return NetworkClass(err)
	}
	return Other
}

// NetworkClass is the class of a network error: Refused when nothing
// accepted the connection, ConnectionLost otherwise.
func NetworkClass(err error) Class {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return Refused
	}
	return ConnectionLost
}

// IsNetwork reports whether err comes from the network layer (refused, reset,
// closed) rather than from the engine.
func IsNetwork(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// Wrap attaches a class to err (nil stays nil).
func Wrap(class Class, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Class: class, Err: err}
}

// Reword puts msg, a line for the user, in place of cause's text while
// errors.Is and errors.As still reach cause: a refused connection stays
// one (NetworkClass) under a message that says what to do.
func Reword(msg string, cause error) error { return &reworded{msg, cause} }

type reworded struct {
	msg   string
	cause error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.cause }
