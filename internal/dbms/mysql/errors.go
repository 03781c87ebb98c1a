package mysql

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
	mysqldrv "github.com/go-sql-driver/mysql"
)

// Server error numbers that decide a class. The client-side 2006 (server
// gone away) and 2013 (lost connection) never arrive as MySQLError from this
// driver: it reports them as ErrInvalidConn, driver.ErrBadConn or a network
// error, which classify handles too.
const (
	erLockWaitTimeout     = 1205
	erCheckRead           = 1020 // MariaDB: write-write conflict under innodb_snapshot_isolation
	erLockDeadlock        = 1213
	erParseError          = 1064
	erSyntaxError         = 1149
	erAccessDenied        = 1045
	erDBAccessDenied      = 1044
	erBadDB               = 1049
	erServerShutdown      = 1053
	erUnknownCom          = 1047 // Galera: "WSREP has not yet prepared node for application use"
	erConnectionKilled    = 1927 // MariaDB: KILL of this session
	erStatementTimeout    = 1969 // MariaDB: max_statement_time exceeded
	erQueryTimeout        = 3024 // MySQL: max_execution_time exceeded
	erClientInteraction   = 4031 // MySQL 8: disconnected by wait_timeout
	erTooManyConnections  = 1040
	erConnectionRefused   = 2002 // client: cannot connect through the socket
	erConnectionHost      = 2003 // client: cannot connect to the host
	erServerGoneAway      = 2006
	erServerLost          = 2013
	erCantDropFieldOrKey  = 1091
	erNotAllowedCommand   = 1148 // local infile refused (older servers)
	erLocalInfileDisabled = 3948 // MySQL 8: local infile off on one side
	erLoadInfileCapDis    = 4166 // MariaDB: local infile capability disabled
)

// classify attaches a dbms.Class to a driver error.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var de *dbms.Error
	if errors.As(err, &de) {
		return err
	}
	return dbms.Wrap(classOf(err), err)
}

func classOf(err error) dbms.Class {
	var me *mysqldrv.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case erCheckRead:
			// A write to a row changed since this transaction's snapshot
			// (innodb_snapshot_isolation=ON): snapshot isolation's
			// write-write conflict, PostgreSQL's 40001.
			return dbms.Serialization
		case erLockDeadlock, erLockWaitTimeout:
			// Both are failures of lock waits. 1205 is how InnoDB ends a
			// deadlock when innodb_deadlock_detect is off, and a wait
			// behind a long lock holder otherwise; sysbench retries it
			// with 1213 and 1020 (docs/retries.md). Galera's certification
			// failures arrive as 1213 too.
			return dbms.Deadlock
		case erStatementTimeout, erQueryTimeout:
			return dbms.Timeout
		case erParseError, erSyntaxError:
			return dbms.Syntax
		case erAccessDenied, erBadDB, erDBAccessDenied:
			return dbms.BadInput
		case erServerGoneAway, erServerLost, erConnectionKilled, erClientInteraction:
			return dbms.ConnectionLost
		case erServerShutdown:
			return dbms.ServerUnavailable
		case erUnknownCom:
			// A Galera node that is joining (state transfer) or has lost
			// its cluster's primary component answers every statement so:
			// it comes back, as a restarting server does.
			if strings.Contains(me.Message, "WSREP") {
				return dbms.ServerUnavailable
			}
		case erTooManyConnections:
			return dbms.TooManyConnections
		case erConnectionRefused, erConnectionHost:
			return dbms.Refused
		}
		// SQLSTATE class 42 is "syntax error or access rule violation":
		// unknown table or column, wrong arity: SQL this engine rejects.
		if me.SQLState[0] == '4' && me.SQLState[1] == '2' {
			return dbms.Syntax
		}
		return dbms.Other
	}
	if errors.Is(err, mysqldrv.ErrInvalidConn) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return dbms.ConnectionLost
	}
	return dbms.Classify(err)
}

// refusedLocalInfile reports whether the server declined LOAD DATA LOCAL.
func refusedLocalInfile(err error) bool {
	var me *mysqldrv.MySQLError
	if !errors.As(err, &me) {
		return false
	}
	return me.Number == erNotAllowedCommand || me.Number == erLocalInfileDisabled || me.Number == erLoadInfileCapDis
}

// isNumber reports whether err is the server error n.
func isNumber(err error, n uint16) bool {
	var me *mysqldrv.MySQLError
	return errors.As(err, &me) && me.Number == n
}

// netReason is the short cause of a network error, for one-line messages.
func netReason(err error) string {
	var ne net.Error
	var te *blockio.TimeoutError
	switch {
	case errors.As(err, &te):
		return te.Error()
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &ne) && ne.Timeout():
		return "connection timed out"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	}
	return err.Error()
}
