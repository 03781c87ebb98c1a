package sqlite

// The C side of the native path (native.go). The SQLite library is the one
// go-sqlite3 compiles into the binary (its amalgamation, or the system's
// libsqlite3 under its libsqlite3 build tag); these are its public C API's
// prototypes, declared here rather than taken from a header so that this
// package does not depend on where that header lies.

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
typedef struct sqlite3_api_routines sqlite3_api_routines;
typedef long long sqlite3_int64;

int sqlite3_auto_extension(void (*)(void));
int sqlite3_create_function_v2(sqlite3 *, const char *, int, int, void *,
	void (*)(sqlite3_context *, int, sqlite3_value **),
	void (*)(sqlite3_context *, int, sqlite3_value **),
	void (*)(sqlite3_context *), void (*)(void *));
sqlite3 *sqlite3_context_db_handle(sqlite3_context *);
void sqlite3_result_int64(sqlite3_context *, sqlite3_int64);
int sqlite3_prepare_v2(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
int sqlite3_finalize(sqlite3_stmt *);
int sqlite3_reset(sqlite3_stmt *);
int sqlite3_clear_bindings(sqlite3_stmt *);
int sqlite3_step(sqlite3_stmt *);
int sqlite3_bind_null(sqlite3_stmt *, int);
int sqlite3_bind_int64(sqlite3_stmt *, int, sqlite3_int64);
int sqlite3_bind_text(sqlite3_stmt *, int, const char *, int, void (*)(void *));
int sqlite3_bind_parameter_count(sqlite3_stmt *);
int sqlite3_column_count(sqlite3_stmt *);
int sqlite3_column_type(sqlite3_stmt *, int);
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *, int);
double sqlite3_column_double(sqlite3_stmt *, int);
const void *sqlite3_column_blob(sqlite3_stmt *, int);
const unsigned char *sqlite3_column_text(sqlite3_stmt *, int);
int sqlite3_column_bytes(sqlite3_stmt *, int);
const char *sqlite3_column_name(sqlite3_stmt *, int);
const char *sqlite3_column_decltype(sqlite3_stmt *, int);
sqlite3 *sqlite3_db_handle(sqlite3_stmt *);
int sqlite3_errcode(sqlite3 *);
int sqlite3_extended_errcode(sqlite3 *);
const char *sqlite3_errmsg(sqlite3 *);
int sqlite3_system_errno(sqlite3 *);
int sqlite3_stmt_status(sqlite3_stmt *, int, int);

enum {
	dbg_OK = 0, dbg_ERROR = 1, dbg_IOERR = 10, dbg_NOMEM = 7, dbg_CANTOPEN = 14,
	dbg_IOERR_NOMEM = 10 | (12 << 8),
	dbg_ROW = 100, dbg_DONE = 101,
	dbg_INTEGER = 1, dbg_FLOAT = 2, dbg_TEXT = 3, dbg_BLOB = 4, dbg_NULL = 5,
	dbg_UTF8 = 1, dbg_DIRECTONLY = 0x000080000,
	dbg_STMTSTATUS_REPREPARE = 5,
};

// dbg_handle is the SQL function dbgauge_connection_handle(): the address
// of the connection that runs it, which is how the Go side learns the
// sqlite3 * of go-sqlite3's connection through SQLite's documented API
// only (go-sqlite3 keeps it in an unexported field).
static void dbg_handle(sqlite3_context *ctx, int n, sqlite3_value **v) {
	sqlite3_result_int64(ctx, (sqlite3_int64)(intptr_t)sqlite3_context_db_handle(ctx));
}

// dbg_entry is the automatic extension SQLite runs on every connection
// opened in this process after dbg_register: it defines the function
// (SQLITE_DIRECTONLY: not from triggers or views).
static int dbg_entry(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
	return sqlite3_create_function_v2(db, "dbgauge_connection_handle", 0, dbg_UTF8 | dbg_DIRECTONLY, 0, dbg_handle, 0, 0, 0);
}

static int dbg_register(void) {
	return sqlite3_auto_extension((void (*)(void))dbg_entry);
}

// dbg_arg is one argument: dbg_NULL, dbg_INTEGER (i64) or dbg_TEXT (n
// bytes at p, in C memory the run owns).
typedef struct {
	int typ;
	int n;
	sqlite3_int64 i64;
	const char *p;
} dbg_arg;

// dbg_run is a statement's exchange area with Go, in C memory: the
// arguments going in, the outcome coming back. out holds, with want, every
// value of every row (a type byte, then 8 bytes of an integer or a double,
// or a 4-byte length and the bytes of a text or blob), or the error
// message after a failure.
typedef struct {
	dbg_arg *args;
	int nargs;
	int want;
	int ncol, repreps, rows;
	int err, ext, sys;
	unsigned char *out;
	size_t len, cap;
} dbg_run;

static int dbg_put(dbg_run *r, const void *p, size_t n) {
	if (r->len + n > r->cap) {
		size_t c = r->cap ? r->cap : 256;
		while (c < r->len + n) c *= 2;
		unsigned char *o = realloc(r->out, c);
		if (!o) return 0;
		r->out = o;
		r->cap = c;
	}
	memcpy(r->out + r->len, p, n);
	r->len += n;
	return 1;
}

static int dbg_row(dbg_run *r, sqlite3_stmt *s, int ncol) {
	for (int i = 0; i < ncol; i++) {
		unsigned char typ = (unsigned char)sqlite3_column_type(s, i);
		if (!dbg_put(r, &typ, 1)) return 0;
		switch (typ) {
		case dbg_INTEGER: {
			sqlite3_int64 v = sqlite3_column_int64(s, i);
			if (!dbg_put(r, &v, 8)) return 0;
			break;
		}
		case dbg_FLOAT: {
			double v = sqlite3_column_double(s, i);
			if (!dbg_put(r, &v, 8)) return 0;
			break;
		}
		case dbg_TEXT:
		case dbg_BLOB: {
			const void *p = typ == dbg_TEXT ? (const void *)sqlite3_column_text(s, i) : sqlite3_column_blob(s, i);
			int32_t n = sqlite3_column_bytes(s, i);
			if (!p) n = 0;
			if (!dbg_put(r, &n, 4) || (n > 0 && !dbg_put(r, p, n))) return 0;
			break;
		}
		}
	}
	return 1;
}

// dbg_exec binds r's arguments to stmt, steps it to its end (copying the
// rows into r->out with r->want), notes the error of a failure as
// go-sqlite3 reads it (its lastError), and resets the statement and its
// bindings: one crossing from Go per execution. It returns the last step's
// (or the failed bind's) result code.
static int dbg_exec(uintptr_t stmt, uintptr_t run) {
	sqlite3_stmt *s = (sqlite3_stmt *)stmt;
	dbg_run *r = (dbg_run *)run;
	int rc = dbg_OK;
	r->len = 0;
	r->rows = 0;
	r->err = r->ext = r->sys = 0;
	for (int i = 0; i < r->nargs && rc == dbg_OK; i++) {
		dbg_arg *a = &r->args[i];
		switch (a->typ) {
		case dbg_INTEGER:
			rc = sqlite3_bind_int64(s, i + 1, a->i64);
			break;
		case dbg_TEXT:
			rc = sqlite3_bind_text(s, i + 1, a->p, a->n, (void (*)(void *))0); // SQLITE_STATIC
			break;
		default:
			rc = sqlite3_bind_null(s, i + 1);
		}
	}
	int oom = 0;
	if (rc == dbg_OK) {
		int ncol = -1;
		while ((rc = sqlite3_step(s)) == dbg_ROW) {
			r->rows++;
			if (!r->want) continue;
			if (ncol < 0) ncol = sqlite3_column_count(s);
			if (!dbg_row(r, s, ncol)) {
				oom = 1;
				break;
			}
		}
	}
	r->ncol = sqlite3_column_count(s);
	r->repreps = sqlite3_stmt_status(s, dbg_STMTSTATUS_REPREPARE, 0);
	if (oom) {
		r->len = 0;
		r->err = r->ext = dbg_NOMEM;
		rc = dbg_NOMEM;
	} else if (rc != dbg_DONE) {
		sqlite3 *db = sqlite3_db_handle(s);
		r->err = sqlite3_errcode(db);
		r->ext = sqlite3_extended_errcode(db);
		if (r->err == dbg_CANTOPEN || (r->err == dbg_IOERR && r->ext != dbg_IOERR_NOMEM)) {
			r->sys = sqlite3_system_errno(db);
		}
		if (r->err == dbg_OK) { // a misuse SQLite did not record
			r->err = r->ext = rc;
		}
		const char *msg = sqlite3_errmsg(db);
		r->len = 0;
		if (msg) dbg_put(r, msg, strlen(msg));
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc;
}

static int dbg_prepare(sqlite3_int64 db, const char *sql, int n, uintptr_t *stmt) {
	sqlite3_stmt *s = 0;
	int rc = sqlite3_prepare_v2((sqlite3 *)(intptr_t)db, sql, n, &s, 0);
	*stmt = (uintptr_t)s;
	return rc;
}

// dbg_prepare_error notes a failed prepare's error in r, as dbg_exec does.
static void dbg_prepare_error(sqlite3_int64 handle, dbg_run *r) {
	sqlite3 *db = (sqlite3 *)(intptr_t)handle;
	r->err = sqlite3_errcode(db);
	r->ext = sqlite3_extended_errcode(db);
	r->sys = 0;
	if (r->err == dbg_CANTOPEN || (r->err == dbg_IOERR && r->ext != dbg_IOERR_NOMEM)) {
		r->sys = sqlite3_system_errno(db);
	}
	const char *msg = sqlite3_errmsg(db);
	r->len = 0;
	if (msg) dbg_put(r, msg, strlen(msg));
}

static int dbg_inputs(uintptr_t s) { return sqlite3_bind_parameter_count((sqlite3_stmt *)s); }
static const char *dbg_column_name(uintptr_t s, int i) { return sqlite3_column_name((sqlite3_stmt *)s, i); }
static const char *dbg_column_decltype(uintptr_t s, int i) { return sqlite3_column_decltype((sqlite3_stmt *)s, i); }
static void dbg_finalize(uintptr_t s) { sqlite3_finalize((sqlite3_stmt *)s); }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// cStmt is a prepared sqlite3_stmt, as an integer: no Go pointer check is
// due on passing it to C.
type cStmt = C.uintptr_t

// registerHandleFunction has SQLite define dbgauge_connection_handle() on
// every connection opened from now on (sqlite3_auto_extension).
func registerHandleFunction() error {
	if rc := C.dbg_register(); rc != 0 {
		return fmt.Errorf("sqlite3_auto_extension: result code %d", int(rc))
	}
	return nil
}

// cRun is a statement's exchange area (dbg_run), in C memory.
type cRun struct {
	r    *C.dbg_run
	args []C.dbg_arg // r.args, argCap long
	text []byte      // C memory for the text arguments
}

// newCRun allocates an exchange area. C.malloc, unlike C.calloc, never
// returns nil (cgo aborts the program when memory runs out).
func newCRun() *cRun {
	r := (*C.dbg_run)(C.malloc(C.size_t(unsafe.Sizeof(C.dbg_run{}))))
	*r = C.dbg_run{}
	return &cRun{r: r}
}

// free releases the C memory.
func (c *cRun) free() {
	C.free(unsafe.Pointer(c.r.args))
	C.free(unsafe.Pointer(c.r.out))
	if len(c.text) > 0 {
		C.free(unsafe.Pointer(&c.text[0]))
	}
	C.free(unsafe.Pointer(c.r))
	c.r, c.args, c.text = nil, nil, nil
}

// reserve makes room for n arguments and size bytes of their text (at
// least one byte when there is a text argument).
func (c *cRun) reserve(n, size int) {
	if n > len(c.args) {
		C.free(unsafe.Pointer(c.r.args))
		c.r.args = (*C.dbg_arg)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.dbg_arg{}))))
		c.args = unsafe.Slice(c.r.args, n)
	}
	if size > len(c.text) {
		if len(c.text) > 0 {
			C.free(unsafe.Pointer(&c.text[0]))
		}
		size = max(size, 2*len(c.text), 64)
		c.text = unsafe.Slice((*byte)(C.malloc(C.size_t(size))), size)
	}
	c.r.nargs = C.int(n)
}

// setNull, setInt and setText set argument i; setText copies s at offset
// off of the text area and returns the offset after it.
func (c *cRun) setNull(i int) { c.args[i].typ = C.dbg_NULL }

func (c *cRun) setInt(i int, v int64) {
	c.args[i].typ, c.args[i].i64 = C.dbg_INTEGER, C.sqlite3_int64(v)
}

func (c *cRun) setText(i int, s string, off int) int {
	n := copy(c.text[off:], s)
	a := &c.args[i]
	a.typ, a.n = C.dbg_TEXT, C.int(n)
	// An empty text still points somewhere: a null pointer binds NULL.
	a.p = (*C.char)(unsafe.Pointer(&c.text[0]))
	if n > 0 {
		a.p = (*C.char)(unsafe.Pointer(&c.text[off]))
	}
	return off + n
}

// exec runs s with the arguments set (dbg_exec); want copies the rows.
func (c *cRun) exec(s cStmt, want bool) int {
	c.r.want = 0
	if want {
		c.r.want = 1
	}
	return int(C.dbg_exec(s, C.uintptr_t(uintptr(unsafe.Pointer(c.r)))))
}

// out is what the last exec or prepare error left in the output area.
func (c *cRun) out() []byte {
	if c.r.len == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(c.r.out)), int(c.r.len))
}

// cPrepare prepares sql on the connection whose address is handle; a
// failure's error is left in run.
func cPrepare(handle int64, sql string, run *cRun) (cStmt, int) {
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	var s C.uintptr_t
	rc := int(C.dbg_prepare(C.sqlite3_int64(handle), cs, C.int(len(sql)), &s))
	if rc != 0 {
		C.dbg_prepare_error(C.sqlite3_int64(handle), run.r)
	}
	return s, rc
}

func cInputs(s cStmt) int { return int(C.dbg_inputs(s)) }

func cColumnName(s cStmt, i int) string { return C.GoString(C.dbg_column_name(s, C.int(i))) }

func cColumnDecltype(s cStmt, i int) string { return C.GoString(C.dbg_column_decltype(s, C.int(i))) }

func cFinalize(s cStmt) { C.dbg_finalize(s) }
