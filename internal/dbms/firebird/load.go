package firebird

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Firebird has no bulk-load protocol (the batch API arrived in Firebird 4).
// Measured on Firebird 3.0.11 over loopback, 100,000 Wisconsin rows (13
// integers, 3 CHAR(52)):
//
//	prepared one-row INSERT, one transaction       6,000 rows/s
//	EXECUTE BLOCK of 200 rows as literals          8,000 rows/s
//	INSERT ... SELECT ? UNION ALL ... (250 rows)  13,000-17,000 rows/s
//	prepared EXECUTE BLOCK with 150 rows of ?     15,000-22,000 rows/s
//	external table files, INSERT ... SELECT,     155,000-166,000 rows/s
//	  written while the previous file loads
//
// The server's CPU is the limit of the wire paths (about 45 µs per row for
// the blocks, against 4 µs per row for INSERT ... SELECT from a file).
//
// Load takes the external-table path when it can prove the server reads the
// files this process writes (load_external.go), else prepared blocks.

// maxBlockText keeps EXECUTE BLOCK under Firebird 3's 64 KB statement limit.
const (
	maxBlockText = 60000
	maxBlockRows = 150
)

// Load fills t through the fastest path this server allows and returns the
// number of rows loaded.
func (e *Engine) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	if len(t.Columns) == 0 {
		return 0, fmt.Errorf("load %s: table has no columns", t.Name)
	}
	if dir := e.externalDir(ctx); dir != "" {
		return e.loadExternal(ctx, t, rows, dir)
	}
	return e.loadBlocks(ctx, t, rows)
}

// loadBlocks sends rows in prepared EXECUTE BLOCK statements whose input
// parameters are the values of many rows: one round trip and no SQL parsing
// per block, all in one transaction. Memory is one block of values.
func (e *Engine) loadBlocks(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	k := blockRows(t)
	tx, err := e.Conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, classify(err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, blockSQL(t, k))
	if err != nil {
		return 0, fmt.Errorf("load %s: prepare: %w", t.Name, classify(err))
	}
	defer stmt.Close()
	nc := len(t.Columns)
	args := make([]any, k*nc)
	var n int64
	fill := 0
	times := t.ColumnsOf(dbms.Timestamp)
	for rows.Next(args[fill*nc : (fill+1)*nc]) {
		// The driver sends a time's reading in its own zone; the contract
		// is its reading in UTC. Decimals' text and nil (NULL) go as they
		// are: the block's typed parameters convert them on the server.
		for _, i := range times {
			if v, ok := args[fill*nc+i].(time.Time); ok {
				args[fill*nc+i] = v.UTC()
			}
		}
		fill++
		if fill == k {
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return n, fmt.Errorf("load %s: rows %d-%d: %w", t.Name, n+1, n+int64(k), classify(err))
			}
			n += int64(k)
			fill = 0
		}
	}
	if fill > 0 {
		last, err := tx.PrepareContext(ctx, blockSQL(t, fill))
		if err == nil {
			_, err = last.ExecContext(ctx, args[:fill*nc]...)
			last.Close()
		}
		if err != nil {
			return n, fmt.Errorf("load %s: last %d rows: %w", t.Name, fill, classify(err))
		}
		n += int64(fill)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("load %s: commit: %w", t.Name, classify(err))
	}
	return n, nil
}

// blockRows is how many rows one block holds: as many as fit the statement
// text limit, at most maxBlockRows (beyond ~50 rows the gain is within noise).
func blockRows(t dbms.Table) int {
	k := maxBlockRows
	for k > 1 && len(blockSQL(t, k)) > maxBlockText {
		k = k * 9 / 10
	}
	return k
}

// blockSQL is EXECUTE BLOCK (p0 INTEGER = ?, ...) AS BEGIN INSERT INTO t
// VALUES (:p0, ...); ... END for k rows.
func blockSQL(t dbms.Table, k int) string {
	nc := len(t.Columns)
	var decl, body strings.Builder
	for r := 0; r < k; r++ {
		fmt.Fprintf(&body, "INSERT INTO %s VALUES (", t.Name)
		for i, c := range t.Columns {
			p := r*nc + i
			if p > 0 {
				decl.WriteByte(',')
			}
			fmt.Fprintf(&decl, "p%d %s=?", p, dbms.StandardType(c))
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, ":p%d", p)
		}
		body.WriteString(");\n")
	}
	return "EXECUTE BLOCK (" + decl.String() + ") AS BEGIN\n" + body.String() + "END"
}

var _ dbms.ConcurrentLoader = (*Engine)(nil)

// LoadSessions is 1: the external-table path creates and drops a table
// per chunk, and those changes of the metadata conflict between sessions
// (measured: four sessions failed with "update conflicts with concurrent
// update" on Firebird 3.0.11), and two sessions that did not collide
// loaded 400,000 rows at 161,000 rows/s against 205,000 for one (one round
// on 2 cores). The block path
// is bound by the server's CPU per row (load.go), which a second session
// shares.
func (e *Engine) LoadSessions() int { return 1 }
