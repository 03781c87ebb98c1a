// Package postgres is dbgauge's PostgreSQL adapter, on pgx's native protocol
// (not database/sql) so that Load can use COPY and the session stays one
// pinned server backend.
package postgres

import (
	"context"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
)

func init() {
	dbms.Register(&dbms.Adapter{Name: "postgres", Schemes: []string{"postgres", "postgresql"}, Open: Open,
		Processes: []dbms.ProcessName{{Comm: "postgres", Product: "PostgreSQL"}, {Comm: "postmaster", Product: "PostgreSQL"}}})
}

// driverModule is the client library whose version runs record.
const driverModule = "github.com/jackc/pgx/v5"

// Engine is one PostgreSQL session (one backend process) on a pgx.Conn.
type Engine struct {
	conn *pgx.Conn
	cfg  *pgx.ConnConfig
	// tx is the transaction Begin opened (nil: none); session.go.
	tx pgx.Tx
	// dollar caches each statement text with ? rewritten to $n.
	dollar map[string]string
	// prepared holds the statements Prepare made, by their ? text, for the
	// fast path of fastpath.go; params and buf are its reused buffers.
	prepared map[string]*pgconn.StatementDescription
	params   [][]byte
	buf      []byte
	// scriptStmts are the statements QueryText and Pipeline prepared, by
	// their text, and ends the text parameters' ends in buf (textquery.go).
	scriptStmts map[string]*pgconn.StatementDescription
	ends        []int
	// socks are the session's blocking sockets (blockio), for Abort.
	socks blockio.Group
	// silence is the I/O time-out that cost this session its connection
	// (nil: none did); errors.go.
	silence *blockio.TimeoutError
	// timing is the engine-reported time's state (enginetime.go).
	timing pgTiming
}

var (
	_ dbms.Engine       = (*Engine)(nil)
	_ dbms.CacheFlusher = (*Engine)(nil)
	_ dbms.Aborter      = (*Engine)(nil)
)

// Open connects one session. Mistakes in the URL (server unreachable, wrong
// password, unknown user or database) are dbms.BadInput with one line
// naming the problem and the fix.
func Open(ctx context.Context, u *dbms.URL) (dbms.Engine, error) {
	cfg, err := pgx.ParseConfig(driverURL(u))
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	usePassword(cfg, u)
	e := &Engine{cfg: cfg}
	// Every connection of the session goes through a blocking socket (see
	// package blockio for why and what it costs): pgx's own cancellation
	// works through the Conn's deadlines, and Abort breaks it from outside.
	e.socks.Timeout = u.IOTimeout
	cfg.DialFunc = e.socks.Dial
	if _, set := u.Query["default_query_exec_mode"]; !set {
		// The simple query protocol parses and plans every execution, as
		// psql, pgbench's default (-M simple) and the other adapters do;
		// pgx's default would prepare and cache each statement, so repeated
		// timings would leave out planning. The URL may choose otherwise.
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	if cfg.ConnectTimeout == 0 {
		// A host that drops packets should fail the command, not hang it.
		cfg.ConnectTimeout = 15 * time.Second
	}
	if _, set := cfg.RuntimeParams["application_name"]; !set {
		cfg.RuntimeParams["application_name"] = "dbgauge"
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, openError(err, u, cfg)
	}
	e.conn = conn
	return e, nil
}

// driverURL is the URL for pgx: without dbgauge's own io_timeout, which pgx
// would send to the server as a setting.
func driverURL(u *dbms.URL) string {
	if u.IOTimeout == 0 {
		return u.Raw
	}
	p, err := url.Parse(u.Raw)
	if err != nil {
		return u.Raw // pgx names the problem
	}
	q := p.Query()
	q.Del("io_timeout")
	p.RawQuery = q.Encode()
	return p.String()
}

// Abort breaks the session's connection from any goroutine (dbms.Aborter):
// a call blocked in it returns at once.
func (e *Engine) Abort() { e.socks.Abort() }

// Reconnect replaces the session with a new one (after a server restart);
// session settings do not survive it.
func (e *Engine) Reconnect(ctx context.Context) error {
	e.Close()
	e.tx = nil // ended with the old session, as were its prepared statements
	e.prepared = nil
	e.scriptStmts = nil
	e.silence = nil // the new session's faults are its own
	e.socks.Forget()
	conn, err := pgx.ConnectConfig(ctx, e.cfg)
	if err != nil {
		return e.classify(err)
	}
	e.conn = conn
	return nil
}

// Name is the registered adapter name.
func (e *Engine) Name() string { return "postgres" }

// Close ends the session.
func (e *Engine) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return e.conn.Close(ctx)
}

// Conn is the underlying connection, for callers that need pgx directly
// (batches, pipelining).
func (e *Engine) Conn() *pgx.Conn { return e.conn }

// BackendPID is the server process serving this session: timing reads its
// /proc counters when the server runs on this machine.
func (e *Engine) BackendPID(ctx context.Context) (int, error) {
	var pid int32
	if err := e.conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		return 0, e.classify(err)
	}
	return int(pid), nil
}
