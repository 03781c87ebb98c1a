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
	// Conflict is a serialization failure or deadlock: retrying may succeed.
	Conflict
	// ConnectionLost means the session is gone: reconnect before going on.
	ConnectionLost
	// Timeout is a statement or lock timeout.
	Timeout
	// Syntax is SQL the engine rejected: a bug in dbgauge or a dialect gap.
	Syntax
	// Unsupported is an ability the engine lacks.
	Unsupported
	// Invalid is data that break the benchmark's assumptions (an update
	// that touched no row): the run must stop, it is no failed trial.
	Invalid
)

func (c Class) String() string {
	return [...]string{"other", "bad_input", "conflict", "connection_lost", "timeout", "syntax", "unsupported", "invalid"}[c]
}

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
		return ConnectionLost
	}
	return Other
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
