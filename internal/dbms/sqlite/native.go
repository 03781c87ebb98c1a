package sqlite

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"strings"
	"syscall"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The native path (dbms.NativeStmts): a script's prepared statements and
// the transaction statements run on SQLite's C API directly, one crossing
// from Go per execution (native_cgo.go's dbg_exec binds, steps to the end,
// copies the rows when they are wanted, and resets), on the connection
// go-sqlite3 opened for the session. Through the driver an execution cost
// database/sql's Conn.Raw, a Rows object, go-sqlite3's locks and column
// metadata, and about as much CPU outside SQLite as a whole five-statement
// transaction's script runtime (docs/client-cost.md).
//
// Reaching the connection: go-sqlite3 keeps its sqlite3 * unexported, so
// this package registers an automatic extension (sqlite3_auto_extension,
// SQLite's documented API) that defines dbgauge_connection_handle() on
// every connection opened in the process; a statement prepares on the
// address that function returns on the session's own connection, asked
// again at every prepare (a connection replaced by Reconnect is a new one).
// SQLite is built thread-safe (go-sqlite3's SQLITE_THREADSAFE=1) and closes
// a connection with sqlite3_close_v2, which keeps it until its last
// statement is finalized, so statements prepared here never outlive it.
//
// Results are what the driver's path gives: values converted as go-sqlite3
// converts them (by the column's declared type: timestamps, booleans),
// then rendered by dbms.Text; errors carry go-sqlite3's codes and message.

// handleFuncErr is why the native path is off, if it is: the automatic
// extension is registered before any connection opens (package init).
var handleFuncErr = registerHandleFunction()

// natives is the Engine's dbms.NativeStmts.
type natives struct {
	// loc is the URL's _loc, the zone go-sqlite3 gives time values.
	loc *time.Location
}

var _ dbms.NativeStmts = (*natives)(nil)

// newNatives is the native path for a connection whose URL gave loc as
// _loc (nil when the path cannot run).
func newNatives(loc string) dbms.NativeStmts {
	if handleFuncErr != nil {
		return nil
	}
	n := &natives{}
	// As go-sqlite3 reads _loc (its Open refused a bad one already).
	switch strings.ToLower(loc) {
	case "":
	case "auto":
		n.loc = time.Local
	default:
		l, err := time.LoadLocation(loc)
		if err != nil {
			return nil
		}
		n.loc = l
	}
	return n
}

// PrepareNative prepares stmt on the connection of dc (go-sqlite3's, held
// by the caller). A connection without the handle function (opened before
// it was registered) is left to the driver.
func (n *natives) PrepareNative(dc any, stmt string) (dbms.NativeStmt, error) {
	handle, ok := connectionHandle(dc)
	if !ok {
		return nil, nil
	}
	run := newCRun()
	s, rc := cPrepare(handle, stmt, run)
	if rc != 0 {
		err := run.err()
		run.free()
		return nil, err
	}
	if s == 0 {
		// Nothing but white space or comments: SQLite prepares no
		// statement, and go-sqlite3's prepared statement would crash the
		// process on its first query (it steps a null statement).
		run.free()
		return emptyStmt{}, nil
	}
	return &nativeStmt{s: s, run: run, inputs: cInputs(s), loc: n.loc, repreps: -1}, nil
}

// emptyStmt is a statement of no SQL: it runs without arguments and
// returns no columns and no rows, as the text path does.
type emptyStmt struct{}

func (emptyStmt) Run(args []any, res *dbms.TextResult) (bool, error) {
	if len(args) > 0 {
		return false, nil
	}
	if res != nil {
		res.Reset()
	}
	return true, nil
}

func (emptyStmt) Close() error { return nil }

// connectionHandle asks go-sqlite3's connection dc for its own address.
func connectionHandle(dc any) (int64, bool) {
	q, ok := dc.(driver.QueryerContext)
	if !ok {
		return 0, false
	}
	rows, err := q.QueryContext(context.Background(), "SELECT dbgauge_connection_handle()", nil)
	if err != nil {
		return 0, false
	}
	defer rows.Close()
	v := make([]driver.Value, 1)
	if rows.Next(v) != nil {
		return 0, false
	}
	h, ok := v[0].(int64)
	return h, ok && h != 0
}

// nativeStmt is one prepared statement and its exchange area.
type nativeStmt struct {
	s      cStmt
	run    *cRun
	inputs int
	loc    *time.Location
	// names and decl (lower case, as go-sqlite3 keeps them) describe the
	// columns as of repreps, the statement's re-prepare count: a schema
	// change re-prepares it inside a step, and may change them.
	names, decl []string
	repreps     int
}

var _ dbms.NativeStmt = (*nativeStmt)(nil)

// Run binds args (nil, int64, int or string; their number the statement's),
// runs the statement in one crossing and reads the rows into res.
func (st *nativeStmt) Run(args []any, res *dbms.TextResult) (bool, error) {
	if len(args) != st.inputs {
		return false, nil
	}
	size := 0
	for _, a := range args {
		switch v := a.(type) {
		case nil, int64, int:
		case string:
			size += len(v) + 1
		default:
			return false, nil
		}
	}
	run := st.run
	run.reserve(len(args), size)
	off := 0
	for i, a := range args {
		switch v := a.(type) {
		case nil:
			run.setNull(i)
		case int64:
			run.setInt(i, v)
		case int:
			run.setInt(i, int64(v))
		case string:
			off = run.setText(i, v, off)
		}
	}
	if rc := run.exec(st.s, res != nil); rc != sqliteDone {
		return true, run.err()
	}
	if res != nil {
		st.read(res)
	}
	return true, nil
}

// Close finalizes the statement and frees its exchange area.
func (st *nativeStmt) Close() error {
	if st.run == nil {
		return nil
	}
	cFinalize(st.s)
	st.run.free()
	st.run = nil
	return nil
}

const sqliteDone = 101

// SQLite's fundamental types, the type bytes of dbg_exec's rows.
const (
	typeInteger = 1
	typeFloat   = 2
	typeText    = 3
	typeBlob    = 4
	typeNull    = 5
)

// read puts the column names and the rows dbg_exec copied into res.
func (st *nativeStmt) read(res *dbms.TextResult) {
	r := st.run.r
	ncol, repreps := int(r.ncol), int(r.repreps)
	if ncol != len(st.names) || repreps != st.repreps {
		st.describe(ncol, repreps)
	}
	res.Reset()
	res.Columns = append(res.Columns, st.names...)
	b := st.run.out()
	for range int(r.rows) {
		row := make([]string, ncol)
		for i := range row {
			typ := b[0]
			b = b[1:]
			switch typ {
			case typeInteger, typeFloat:
				bits := binary.NativeEndian.Uint64(b)
				b = b[8:]
				if typ == typeInteger {
					row[i] = st.integer(int64(bits), st.decl[i])
				} else {
					row[i] = dbms.Text(math.Float64frombits(bits))
				}
			case typeText, typeBlob:
				n := int(int32(binary.NativeEndian.Uint32(b)))
				v := b[4 : 4+n]
				b = b[4+n:]
				if typ == typeText {
					row[i] = st.text(string(v), st.decl[i])
				} else {
					row[i] = dbms.Text(v)
				}
			default: // NULL
				row[i] = dbms.Text(nil)
			}
		}
		res.Rows = append(res.Rows, row)
	}
}

// describe reads the columns' names and declared types.
func (st *nativeStmt) describe(ncol, repreps int) {
	st.names, st.decl = make([]string, ncol), make([]string, ncol)
	for i := range ncol {
		st.names[i] = cColumnName(st.s, i)
		st.decl[i] = strings.ToLower(cColumnDecltype(st.s, i))
	}
	st.repreps = repreps
}

// The declared types go-sqlite3 converts values of (its readStepResult).
const (
	declDate      = "date"
	declDatetime  = "datetime"
	declTimestamp = "timestamp"
	declBoolean   = "boolean"
)

// integer renders an INTEGER value as the driver's path does: go-sqlite3
// gives a time for a date/time column (seconds, or milliseconds when the
// value is that large) and a bool for a boolean one.
func (st *nativeStmt) integer(v int64, decl string) string {
	switch decl {
	case declDate, declDatetime, declTimestamp:
		var t time.Time
		if v > 1e12 || v < -1e12 {
			t = time.Unix(0, v*int64(time.Millisecond))
		} else {
			t = time.Unix(v, 0)
		}
		t = t.UTC()
		if st.loc != nil {
			t = t.In(st.loc)
		}
		return dbms.Text(t)
	case declBoolean:
		return dbms.Text(v > 0)
	}
	return strconv.FormatInt(v, 10) // as Text's fmt.Sprint
}

// text renders a TEXT value as the driver's path does: go-sqlite3 parses a
// date/time column's text in its formats (the zero time when none fits).
func (st *nativeStmt) text(s, decl string) string {
	switch decl {
	case declDate, declDatetime, declTimestamp:
		s = strings.TrimSuffix(s, "Z")
		var t time.Time
		for _, f := range sqlite3.SQLiteTimestampFormats {
			if v, err := time.ParseInLocation(f, s, time.UTC); err == nil {
				t = v
				break
			}
		}
		if st.loc != nil {
			t = t.In(st.loc)
		}
		return dbms.Text(t)
	}
	return dbms.Text(s)
}

// err is the failure dbg_exec or a prepare noted, as go-sqlite3's
// lastError makes it.
func (c *cRun) err() error {
	r := c.r
	e := &nativeError{se: sqlite3.Error{Code: sqlite3.ErrNo(r.err), ExtendedCode: sqlite3.ErrNoExtended(r.ext), SystemErrno: syscall.Errno(r.sys)}, msg: string(c.out())}
	if r.err == 7 && r.len == 0 { // SQLITE_NOMEM while copying the rows
		e.msg = "out of memory"
	}
	return e
}

// nativeError is a failure on the native path: go-sqlite3's sqlite3.Error
// (errors.As finds it), with the message go-sqlite3 would give, which it
// keeps in an unexported field.
type nativeError struct {
	se  sqlite3.Error
	msg string
}

func (e *nativeError) Error() string {
	if e.msg == "" {
		return e.se.Error()
	}
	if e.se.SystemErrno != 0 {
		return e.msg + ": " + e.se.SystemErrno.Error()
	}
	return e.msg
}

// As gives the sqlite3.Error to errors.As.
func (e *nativeError) As(target any) bool {
	if p, ok := target.(*sqlite3.Error); ok {
		*p = e.se
		return true
	}
	return false
}

// sqliteMessage is the message of the SQLite error se found in err.
func sqliteMessage(err error, se sqlite3.Error) string {
	var ne *nativeError
	if errors.As(err, &ne) {
		return ne.Error()
	}
	return se.Error()
}
