package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
)

// classify attaches a dbms.Class to an error of this session, from the
// server's SQLSTATE or from the state of the connection.
func (e *Engine) classify(err error) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if c, ok := sqlstateClass(pe.Code); ok {
			return dbms.Wrap(c, err)
		}
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return dbms.Wrap(dbms.Timeout, err)
	}
	// A read that ran out of the I/O time-out (the server stopped
	// answering) has cost the connection: the caller must reconnect, and
	// the error's text names the time-out. pgx closes the connection on
	// such a read and answers every later call with "conn closed" only:
	// the first time-out stays the cause for as long as the session
	// lasts, whichever call (a side read such as the engine's time)
	// classified it first.
	te := e.socks.TakeTimeout()
	if e.conn.IsClosed() {
		if e.silence == nil {
			e.silence = te
		}
		var already *blockio.TimeoutError
		if e.silence != nil && !errors.As(err, &already) {
			err = fmt.Errorf("%w (%v)", e.silence, err)
		}
		return dbms.Wrap(dbms.ConnectionLost, err)
	}
	if pgconn.Timeout(err) {
		return dbms.Wrap(dbms.Timeout, err)
	}
	if dbms.IsNetwork(err) {
		return dbms.Wrap(dbms.NetworkClass(err), err)
	}
	return err
}

// sqlstateClass maps the SQLSTATEs dbgauge acts on
// (https://www.postgresql.org/docs/current/errcodes-appendix.html).
func sqlstateClass(code string) (dbms.Class, bool) {
	switch {
	case code == "40001": // serialization_failure (also a standby's query cancelled by recovery)
		return dbms.Serialization, true
	case code == "40P01": // deadlock_detected
		return dbms.Deadlock, true
	case code == "57014", code == "55P03": // query_canceled (statement_timeout), lock_not_available (lock_timeout)
		return dbms.Timeout, true
	case code == "28P01", code == "28000", code == "3D000": // bad password, no such role / pg_hba, no such database
		return dbms.BadInput, true
	case strings.HasPrefix(code, "08"), // connection exception
		code == "57P01": // admin_shutdown: this session was ended (a shutdown, or pg_terminate_backend)
		return dbms.ConnectionLost, true
	case code == "57P02", code == "57P03": // crash_shutdown; cannot_connect_now (starting, stopping, recovering)
		return dbms.ServerUnavailable, true
	case code == "53300": // too_many_connections
		return dbms.TooManyConnections, true
	case strings.HasPrefix(code, "42"): // syntax error or access rule violation
		return dbms.Syntax, true
	case code == "0A000": // feature_not_supported
		return dbms.Unsupported, true
	}
	return dbms.Other, false
}

// openError turns a failed connect into one line naming the problem and the
// fix; the driver's error stays reachable through errors.As/Is.
func openError(err error, u *dbms.URL, cfg *pgx.ConnConfig) error {
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	user, database := cfg.User, cfg.Database
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01":
			if cfg.Password == "" {
				return badInput(err, "PostgreSQL at %s asks user %q for a password: %s", addr, user, passwordFix(u, cfg))
			}
			return badInput(err, "PostgreSQL at %s rejected the password of user %q: %s", addr, user, passwordFix(u, cfg))
		case "28000":
			return badInput(err, "PostgreSQL at %s refused user %q: %s; fix the user in --db or the server's pg_hba.conf", addr, user, pe.Message)
		case "42704", "22023", "22P02":
			// undefined_object, invalid_parameter_value,
			// invalid_text_representation: at connect, only the URL's
			// run-time parameters (options, or any unknown key pgx
			// passes on) can give them.
			return badInput(err, "PostgreSQL at %s refused the parameter of --db: %s: remove it or fix its value", addr, pe.Message)
		case "3D000":
			return badInput(err, "database %q does not exist on PostgreSQL at %s: create it (createdb -h %s -p %d -U %s %s) or fix --db",
				database, addr, cfg.Host, cfg.Port, user, database)
		}
		if c, ok := sqlstateClass(pe.Code); ok {
			return dbms.Wrap(c, fmt.Errorf("connect to PostgreSQL at %s: %s (SQLSTATE %s)", addr, pe.Message, pe.Code))
		}
		return fmt.Errorf("connect to PostgreSQL at %s: %w", addr, err)
	}
	return badInput(err, "cannot reach PostgreSQL at %s: %s; is the server running?", addr, dialCause(err))
}

// dialCause is the innermost reason a connection could not be made, without
// the driver's prefixes.
func dialCause(err error) string {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns):
		return "cannot resolve host " + dns.Name
	case pgconn.Timeout(err), errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.As(err, &op):
		return op.Err.Error()
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

// lineError is a one-line message for the user that still unwraps to the
// driver's error.
type lineError struct {
	msg   string
	cause error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.cause }

func badInput(cause error, format string, args ...any) error {
	return dbms.Wrap(dbms.BadInput, &lineError{msg: fmt.Sprintf(format, args...), cause: cause})
}
