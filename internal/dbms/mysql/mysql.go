// Package mysql is dbgauge's adapter for MariaDB and MySQL, through
// github.com/go-sql-driver/mysql on one pinned connection. Tables are InnoDB
// (named explicitly, so a server whose default engine is something else still
// measures InnoDB), bulk loads stream through LOAD DATA LOCAL INFILE, and the
// clustered storage is InnoDB's primary key.
package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
	mysqldrv "github.com/go-sql-driver/mysql"
)

const defaultPort = "3306"

func init() {
	dbms.Register(&dbms.Adapter{Name: "mysql", Schemes: []string{"mysql", "mariadb"}, Open: Open, FindPassword: findPassword,
		Processes: []dbms.ProcessName{
			{Comm: "mariadbd", Product: "MariaDB"}, {Comm: "mysqld", Product: "MySQL"},
			{Comm: "mariadbd-safe", Product: "MariaDB", Helper: true}, {Comm: "mysqld_safe", Product: "MySQL", Helper: true},
		}})
	// The driver also prints the errors it returns ("unexpected EOF" when a
	// session is killed) to stderr, where they would tear the progress line;
	// every one of them reaches the caller, classified.
	mysqldrv.SetLogger(log.New(io.Discard, "", 0))
}

// Engine is one MariaDB/MySQL session.
type Engine struct {
	dbms.SQLBase
	// loadPath is the bulk path the last Load took ("" before any load).
	loadPath string
	// connID is this session's CONNECTION_ID(), for Interrupt.
	connID atomic.Int64
	// iso is the session's transaction isolation as Begin last set it;
	// isoSet is false until then and after a reconnect (session.go).
	iso    dbms.Isolation
	isoSet bool
	// socks are the session's blocking sockets (blockio), for Abort.
	socks blockio.Group
	// wsrep caches whether the server replicates with Galera: 0 not
	// asked yet, 1 yes, 2 no (readonly.go).
	wsrep int
	// threadID is the session's thread in performance_schema, for the
	// engine's own times (enginetime.go); 0: not known yet.
	threadID int64
}

// timedOut says why a call failed when one of the session's connections
// ran out of its I/O time-out: the driver reports that as "invalid
// connection" only.
func (e *Engine) timedOut(err error) error {
	if te := e.socks.TakeTimeout(); te != nil && err != nil {
		return dbms.Wrap(dbms.Timeout, fmt.Errorf("%w (%v)", te, err))
	}
	return err
}

// classify is the package's classify, after timedOut.
func (e *Engine) classify(err error) error { return classify(e.timedOut(err)) }

// Abort breaks the session's connections from any goroutine (dbms.Aborter):
// a call blocked in one returns at once.
func (e *Engine) Abort() { e.socks.Abort() }

var (
	_ dbms.Engine       = (*Engine)(nil)
	_ dbms.CacheFlusher = (*Engine)(nil)
	_ dbms.Aborter      = (*Engine)(nil)
)

// Open connects one session. Every failure here is the user's to fix
// (server down, wrong password, missing database), so all are BadInput with
// one line that names the problem.
func Open(ctx context.Context, u *dbms.URL) (dbms.Engine, error) {
	cfg, err := config(u)
	if err != nil {
		return nil, err
	}
	e := &Engine{}
	// Every connection of the session goes through a blocking socket (see
	// package blockio for why and what it costs); the driver's own
	// cancellation closes it, and Abort breaks it from outside.
	e.socks.Timeout = u.IOTimeout
	cfg.DialFunc = e.socks.Dial
	connector, err := mysqldrv.NewConnector(cfg)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--db %s: %w", u.Redacted(), err))
	}
	db, conn, err := dbms.PinSQL(ctx, sql.OpenDB(connector))
	if err != nil {
		return nil, openError(u, cfg, e.timedOut(err))
	}
	// Prepared statements run on the driver's own statements (DirectStmts):
	// database/sql's route cost a fifth of the client's CPU per point
	// select (docs/client-cost.md); transactions are the session's (START
	// TRANSACTION as text), as the fast path needs.
	e.SQLBase = dbms.SQLBase{DB: db, Conn: conn, TypeName: typeName, ClassifyErr: e.classify, DirectStmts: true}
	e.OnConnect = func(ctx context.Context) error {
		e.isoSet = false // a new session has the server's default
		e.threadID = 0
		return e.rememberConnection(ctx)
	}
	if err := e.rememberConnection(ctx); err != nil {
		e.Close()
		return nil, err
	}
	// The driver answers a cancelled context by dropping the connection; the
	// server would go on running the statement, so kill it from another one.
	e.Interrupt = func() {
		kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		db.ExecContext(kctx, fmt.Sprintf("KILL QUERY %d", e.connID.Load()))
	}
	return e, nil
}

// config builds the driver configuration from the URL. Query parameters pass
// through to the driver (tls=..., charset=...), except the two that would
// change what statements mean or which files a server may read.
func config(u *dbms.URL) (*mysqldrv.Config, error) {
	if u.Database == "" {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--db %s names no database: use %s://user:pass@host:port/DATABASE", u.Redacted(), u.Scheme))
	}
	cfg := mysqldrv.NewConfig()
	cfg.Net, cfg.Addr = "tcp", u.Addr(defaultPort)
	if u.Socket != "" {
		cfg.Net, cfg.Addr = "unix", u.Socket
	}
	cfg.User = u.User
	if cfg.User == "" {
		cfg.User = "root"
	}
	cfg.Passwd = u.Password
	cfg.DBName = u.Database
	cfg.Timeout = 10 * time.Second
	for k, vs := range u.Query {
		if len(vs) == 0 {
			continue
		}
		if cfg.Params == nil {
			cfg.Params = map[string]string{}
		}
		cfg.Params[k] = vs[len(vs)-1]
	}
	if len(cfg.Params) > 0 {
		// Let the driver parse its own options (tls, charset, timeouts...).
		parsed, err := mysqldrv.ParseDSN(cfg.FormatDSN())
		if err != nil {
			return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--db %s: %w", u.Redacted(), err))
		}
		cfg = parsed
	}
	cfg.ParseTime = true
	// Multi-statement strings would let one Exec hide several timed statements.
	cfg.MultiStatements = false
	// Bulk loads use registered readers, never files named by the server.
	cfg.AllowAllFiles = false
	// Client-side interpolation makes the INSERT fallback one round trip per
	// batch and avoids the 65535-placeholder limit of prepared statements.
	cfg.InterpolateParams = true
	return cfg, nil
}

func (e *Engine) rememberConnection(ctx context.Context) error {
	id, err := e.ConnectionID(ctx)
	if err == nil {
		e.connID.Store(id)
	}
	return err
}

// ConnectionID is the server's id of this session (SELECT CONNECTION_ID()),
// the key to its thread in the processlist and performance_schema.
func (e *Engine) ConnectionID(ctx context.Context) (int64, error) {
	var id int64
	err := e.Conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id)
	if err != nil {
		return 0, classify(err)
	}
	return id, nil
}

// Name is the registered adapter name.
func (e *Engine) Name() string { return "mysql" }

// product names the server in messages after the URL scheme the user typed.
func product(u *dbms.URL) string {
	if u.Scheme == "mariadb" {
		return "MariaDB"
	}
	return "MySQL"
}

// openError turns a failed connect into one line naming the problem and the fix.
func openError(u *dbms.URL, cfg *mysqldrv.Config, err error) error {
	what := fmt.Sprintf("%s at %s", product(u), cfg.Addr)
	var me *mysqldrv.MySQLError
	switch {
	case errors.As(err, &me) && (me.Number == 1045 || me.Number == 1698):
		err = fmt.Errorf("cannot log in to %s as %q: wrong user or password (%s); fix the user in --db; %s", what, cfg.User, me.Message, u.PasswordFix(passwordPlaces))
	case errors.As(err, &me) && me.Number == 1049:
		err = fmt.Errorf("database %q does not exist on %s; create it (CREATE DATABASE %s) or fix the database in --db", cfg.DBName, what, cfg.DBName)
	case errors.As(err, &me) && me.Number == 1044:
		err = fmt.Errorf("user %q may not use database %q on %s (%s); grant access or fix --db", cfg.User, cfg.DBName, what, me.Message)
	case dbms.IsNetwork(err):
		err = dbms.Reword(fmt.Sprintf("cannot reach %s: %s; is the server running?", what, netReason(err)), err)
	case errors.As(err, &me) && classOf(err).Transient():
		// A server shutting down, starting or full is no mistake of the
		// user's: the class stays, and a load client may retry.
		return dbms.Wrap(classOf(err), fmt.Errorf("cannot connect to %s: %w", what, err))
	default:
		err = fmt.Errorf("cannot connect to %s: %w", what, err)
	}
	return dbms.Wrap(dbms.BadInput, err)
}
