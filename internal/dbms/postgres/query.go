package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Exec runs one statement and returns the rows it affected (0 for DDL).
func (e *Engine) Exec(ctx context.Context, sql string) (int64, error) {
	tag, err := e.conn.Exec(ctx, sql)
	if err != nil {
		return 0, e.classify(err)
	}
	return tag.RowsAffected(), nil
}

// QueryCount fetches every row of sql to the client and counts them. Rows
// are read off the wire but not decoded (pgx hands out raw bytes). The
// database/sql adapters cannot avoid their drivers' decoding, so "to the
// client" times include a little more client work on those engines.
func (e *Engine) QueryCount(ctx context.Context, sql string) (int64, error) {
	rows, err := e.conn.Query(ctx, sql)
	if err != nil {
		return 0, e.classify(err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	return n, e.classify(rows.Err())
}

// QueryRows returns all rows of sql as strings, NULL as "" and char(n)
// padding trimmed (as the other adapters return them).
func (e *Engine) QueryRows(ctx context.Context, sql string) ([][]string, error) {
	rows, err := e.conn.Query(ctx, sql)
	if err != nil {
		return nil, e.classify(err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		fields := rows.FieldDescriptions()
		raw := rows.RawValues()
		row := make([]string, len(raw))
		var decoded []any
		for i, b := range raw {
			switch {
			case b == nil:
			case fields[i].Format == pgtype.TextFormatCode:
				// The simple protocol sends text: PostgreSQL's own rendering.
				row[i] = strings.TrimRight(string(b), " ")
			default:
				if decoded == nil {
					if decoded, err = rows.Values(); err != nil {
						return out, e.classify(err)
					}
				}
				row[i] = strings.TrimRight(fmt.Sprint(decoded[i]), " ")
			}
		}
		out = append(out, row)
	}
	return out, e.classify(rows.Err())
}

// infoSettings are the server settings a benchmark result depends on: cache
// sizes, planner memory, parallelism, JIT, durability and page layout.
var infoSettings = []string{
	"server_version", "shared_buffers", "work_mem", "maintenance_work_mem", "effective_cache_size",
	"max_parallel_workers_per_gather", "jit", "synchronous_commit", "fsync", "full_page_writes",
	"wal_level", "max_wal_size", "block_size", "data_checksums",
}

// Info reports the server version, pgx's version and infoSettings;
// BufferPoolBytes is shared_buffers in bytes (pages times block_size).
func (e *Engine) Info(ctx context.Context) (dbms.Info, error) {
	info := dbms.Info{
		Engine:        "postgres",
		Driver:        driverModule,
		DriverVersion: dbms.ModuleVersion(driverModule),
		Settings:      map[string]string{},
	}
	rows, err := e.QueryRows(ctx, "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('"+
		strings.Join(infoSettings, "', '")+"')")
	if err != nil {
		return info, fmt.Errorf("read settings: %w", err)
	}
	for _, r := range rows {
		info.Settings[r[0]] = r[1]
	}
	info.Version = info.Settings["server_version"]
	err = e.conn.QueryRow(ctx, "SELECT setting::bigint * current_setting('block_size')::bigint FROM pg_settings WHERE name = 'shared_buffers'").
		Scan(&info.BufferPoolBytes)
	if err != nil {
		return info, fmt.Errorf("read shared_buffers: %w", e.classify(err))
	}
	return info, nil
}
