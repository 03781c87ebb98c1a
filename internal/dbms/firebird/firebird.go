// Package firebird is dbgauge's adapter for Firebird 3 and later, through
// github.com/nakagami/firebirdsql (pure Go, the wire protocol, database/sql).
//
// URL form: firebird://user:pass@host:port//abs/path.fdb names the database
// file /abs/path.fdb on the server; firebird://user:pass@host:port/name names
// an alias from the server's databases.conf. The port defaults to 3050, the
// user to $ISC_USER or SYSDBA, the password to $ISC_PASSWORD (password.go). Query parameters are passed on as driver options
// (wire_crypt=false, auth_plugin_name=Srp, ...), except ext_dir=DIR, which
// names the directory for external-table loads (see load_external.go).
//
// Identifiers are left unquoted, so Firebird stores them in upper case and
// the metadata look-ups below compare upper-cased names.
package firebird

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/nakagami/firebirdsql" // registers the "firebirdsql" database/sql driver

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
)

const (
	driverName   = "firebirdsql"
	driverModule = "github.com/nakagami/firebirdsql"
	defaultPort  = "3050"
)

func init() {
	dbms.Register(&dbms.Adapter{Name: "firebird", Schemes: []string{"firebird"}, Open: open, FindPassword: findPassword,
		Processes: []dbms.ProcessName{
			{Comm: "fbserver", Product: "Firebird"}, {Comm: "fb_smp_server", Product: "Firebird"},
			{Comm: "fb_inet_server", Product: "Firebird"}, {Comm: "firebird", Product: "Firebird"},
			{Comm: "fbguard", Product: "Firebird", Helper: true},
		},
		FileSuffixes: []string{".fdb"}})
}

// Engine is one Firebird attachment.
type Engine struct {
	dbms.SQLBase
	addr string // host:port
	path string // database file or alias, as the server sees it
	// user and password are those the session logged in with, wherever
	// they came from (password.go), for isql-fb (pagesize.go).
	user, password string

	extDirOption string    // the URL's ext_dir: where external-table loads write
	extOnce      sync.Once // externalDir probes once
	extDir       string    // "" when external-table loads are not possible

	attachment atomic.Int64 // this session's CURRENT_CONNECTION, for Interrupt

	// socks are the session's blocking sockets (blockio), for Abort.
	socks blockio.Group
}

func (e *Engine) rememberAttachment(ctx context.Context) error {
	id, err := e.AttachmentID(ctx)
	if err == nil {
		e.attachment.Store(id)
	}
	return err
}

var (
	_ dbms.Engine       = (*Engine)(nil)
	_ dbms.CacheFlusher = (*Engine)(nil)
	_ dbms.Aborter      = (*Engine)(nil)
)

func open(ctx context.Context, u *dbms.URL) (dbms.Engine, error) {
	e := &Engine{addr: u.Addr(defaultPort), path: u.Database, extDirOption: u.Query.Get("ext_dir"), user: userOf(u), password: u.Password}
	if e.path == "" || e.path == "/" {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--db %s names no database: write firebird://user:pass@host:port//abs/path.fdb (or an alias after a single /)", u.Redacted()))
	}
	e.socks.Timeout = u.IOTimeout
	db, err := openDB(dsn(u), &e.socks)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, fmt.Errorf("--db %s: %w", u.Redacted(), err))
	}
	db, conn, err := dbms.PinSQL(ctx, db)
	if err != nil {
		return nil, openError(u, e.addr, e.path, err)
	}
	e.SQLBase = dbms.SQLBase{DB: db, Conn: conn, TypeName: dbms.StandardType, ClassifyErr: classify}
	e.OnConnect = e.rememberAttachment
	e.ResetAutocommit = e.resetAutocommit
	if err := e.rememberAttachment(ctx); err != nil {
		e.Close()
		return nil, err
	}
	// The driver answers a cancelled context by closing the connection and
	// the server would go on running the statement: cancel it through the
	// monitoring tables from another attachment (Firebird 3 has no statement
	// timeout).
	e.Interrupt = func() {
		kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		db.ExecContext(kctx, fmt.Sprintf("DELETE FROM MON$STATEMENTS WHERE MON$ATTACHMENT_ID = %d AND MON$STATE = 1", e.attachment.Load()))
	}
	return e, nil
}

// dsn renders the driver's data source name: user:pass@host:port/path where
// the driver keeps a path with an inner slash as is (/abs/path.fdb) and
// strips the slash before a bare alias. ext_dir is dbgauge's own option.
func dsn(u *dbms.URL) string {
	user := userOf(u)
	path := u.Database
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	s := url.UserPassword(user, u.Password).String() + "@" + u.Addr(defaultPort) + path
	q := url.Values{}
	for k, v := range u.Query {
		if k != "ext_dir" {
			q[k] = v
		}
	}
	if len(q) > 0 {
		s += "?" + q.Encode()
	}
	return s
}

// Name is the adapter name.
func (e *Engine) Name() string { return "firebird" }

// AttachmentID is the server's id of this session (CURRENT_CONNECTION), the
// key of its rows in the MON$ tables.
func (e *Engine) AttachmentID(ctx context.Context) (int64, error) {
	if err := e.Autocommit(ctx); err != nil {
		return 0, err
	}
	var id int64
	err := e.Conn.QueryRowContext(ctx, "SELECT CURRENT_CONNECTION FROM RDB$DATABASE").Scan(&id)
	return id, classify(err)
}

// FlushCache empties nothing: Firebird keeps a database's page cache for as
// long as any attachment (this one included) holds the database open, and has
// no statement to drop it. What would do it is said in notDone.
func (e *Engine) FlushCache(ctx context.Context) (done, notDone []string, err error) {
	return nil, []string{
		"Firebird page cache: no statement empties it while the database is attached; restart the server (or detach every session) for a cold cache",
	}, nil
}

// isLocal reports whether the server runs on this machine (loopback), which
// is when a file this process writes is a file the server can read.
func (e *Engine) isLocal() bool {
	host, _, err := net.SplitHostPort(e.addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
