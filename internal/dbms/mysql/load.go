package mysql

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/dbgauge/dbgauge/internal/dbms"
	mysqldrv "github.com/go-sql-driver/mysql"
)

// Load paths, as recorded in Info.Settings["load_path"].
const (
	PathLocalInfile = "load_data_local_infile"
	PathInsert      = "multi_row_insert"
)

// readerSeq names each load's reader handler uniquely: the driver's handler
// registry is process-wide and other Engines may load at the same time.
var readerSeq atomic.Int64

// Load streams rows into t by LOAD DATA LOCAL INFILE, the path the server's
// own loaders (mariadb-import --local, LOAD DATA from the client) use: the
// rows travel as tab-separated text in the protocol's file-transfer packets
// and the server parses them without any statement per row. The text is
// produced as the driver reads it, so memory stays constant at any row
// count. A server that refuses local infile gets batched multi-row INSERTs
// in one transaction instead; LoadPath says which path ran.
//
// The session keeps unique_checks and foreign_key_checks on: turning them off
// (as mariadb-dump does) switches MariaDB 10.6+ to its sort-then-build bulk
// insert into empty tables, which measured about 1.5x slower here than plain
// LOAD DATA for tables without a primary key; into tables created with
// their keys (KeyedTables) it takes the table, so sessions loading other
// parts of it at once end in deadlocks, and alone it gained nothing (4
// warehouses of orders, MariaDB 10.11).
//
// LOAD DATA is kept over the multi-row INSERTs go-tpc loads with: the
// same 4 warehouses of orders into keyed tables through insertLoad took
// the server 16.7 s of CPU and the client 6.9 s, against 11.0 s and 2.7 s
// by LOAD DATA.
func (e *Engine) Load(ctx context.Context, t dbms.Table, rows dbms.RowSource) (int64, error) {
	r := newTSVReader(ctx, t, rows)
	name := fmt.Sprintf("dbgauge-load-%d", readerSeq.Add(1))
	mysqldrv.RegisterReaderHandler(name, func() io.Reader { return r })
	defer mysqldrv.DeregisterReaderHandler(name)
	// Defaults are FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED
	// BY '\n', which is what tsvReader writes; spelling them out would depend
	// on sql_mode's treatment of backslashes in string literals.
	q := fmt.Sprintf("LOAD DATA LOCAL INFILE 'Reader::%s' INTO TABLE %s CHARACTER SET utf8mb4 (%s)", name, t.Name, columnNames(t))
	// An explicit transaction, so a load that fails half way (a bad value,
	// a cancelled ctx: the driver then ends the file early and the server
	// would keep what it got) leaves the table as it was.
	if _, err := e.Exec(ctx, "START TRANSACTION"); err != nil {
		return 0, fmt.Errorf("load %s: %w", t.Name, err)
	}
	n, err := e.Exec(ctx, q)
	if err != nil {
		e.rollback(ctx)
		if refusedLocalInfile(err) && r.rows == 0 {
			return e.insertLoad(ctx, t, rows)
		}
	}
	e.loadPath = PathLocalInfile
	if err != nil {
		return 0, fmt.Errorf("load %s: %w", t.Name, err)
	}
	// LOCAL implies IGNORE: bad or duplicate rows become warnings, so a short
	// count is the only sign that rows were lost.
	if n != r.rows {
		w := e.warnings(ctx)
		e.rollback(ctx)
		return 0, fmt.Errorf("load %s: server would store %d of %d rows (%s); rolled back", t.Name, n, r.rows, w)
	}
	if _, err := e.Exec(ctx, "COMMIT"); err != nil {
		return 0, fmt.Errorf("load %s: commit: %w", t.Name, err)
	}
	return n, nil
}

// rollback ends a failed load's transaction even when ctx was cancelled.
func (e *Engine) rollback(ctx context.Context) {
	e.Exec(context.WithoutCancel(ctx), "ROLLBACK")
}

// LoadPath is the bulk path the last Load used: PathLocalInfile,
// PathInsert, or "" before any load.
func (e *Engine) LoadPath() string { return e.loadPath }

func columnNames(t dbms.Table) string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// warnings summarises the first server warnings for an error message.
func (e *Engine) warnings(ctx context.Context) string {
	rows, err := e.QueryRows(ctx, "SHOW WARNINGS LIMIT 3")
	if err != nil || len(rows) == 0 {
		return "no warnings"
	}
	var parts []string
	for _, r := range rows {
		parts = append(parts, strings.Join(r, " "))
	}
	return strings.Join(parts, "; ")
}

var _ dbms.ConcurrentLoader = (*Engine)(nil)

// LoadSessions: LOAD DATA into one InnoDB table from several sessions
// runs in parallel server threads (row locks only, no table lock), each
// parsing and inserting its own rows, until they queue on the latches of
// the table's B-trees; the bound is that limit, as for PostgreSQL (and
// as there, eight is a judgement, not a measurement). Into keyed tables,
// parts by warehouse are disjoint ranges of the key, each appended in
// order by its session. At 4 warehouses of orders on 2 busy cores (load
// average 7) one session cost the server about 10% less CPU than four
// (10.0 s against 11.1 s) and the wall-clock times overlapped (14.8 to
// 17.2 s against 15.7 to 19.5 s): no reason to give up loading by
// warehouse in parallel where there are cores for it.
func (e *Engine) LoadSessions() int { return 8 }
