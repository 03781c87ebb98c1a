package duckdb

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// infoSettings are the DuckDB settings that shape a benchmark's result:
// parallelism, the buffer manager's size and spill, block size, insertion
// order (lets DuckDB reorder rows for speed) and checkpointing.
var infoSettings = []string{
	"threads", "memory_limit", "temp_directory", "max_temp_directory_size",
	"default_block_size", "preserve_insertion_order", "checkpoint_threshold",
	"storage_compatibility_version", "access_mode",
}

// Info reports the version, the benchmark-relevant settings and the size of
// the database. BufferPoolBytes is memory_limit, the ceiling of DuckDB's
// buffer manager (DuckDB formats it to one decimal, e.g. "953.6 MiB").
func (e *Engine) Info(ctx context.Context) (dbms.Info, error) {
	info := dbms.Info{
		Engine:        "duckdb",
		Driver:        driverModule,
		DriverVersion: dbms.ModuleVersion(driverModule),
		Settings:      map[string]string{},
	}
	rows, err := e.QueryRows(ctx, "SELECT library_version, source_id FROM pragma_version()")
	if err != nil {
		return info, fmt.Errorf("duckdb version: %w", err)
	}
	info.Version = rows[0][0]
	info.Settings["source_id"] = rows[0][1]

	quoted := make([]string, len(infoSettings))
	for i, s := range infoSettings {
		quoted[i] = dbms.Quote(s)
	}
	rows, err = e.QueryRows(ctx, "SELECT name, value FROM duckdb_settings() WHERE name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil {
		return info, fmt.Errorf("duckdb settings: %w", err)
	}
	for _, r := range rows {
		info.Settings[r[0]] = r[1]
	}

	// pragma_database_size is cheap: it reads block counts, not data.
	rows, err = e.QueryRows(ctx, "SELECT database_size, block_size, wal_size FROM pragma_database_size() WHERE database_name = current_database()")
	if err != nil {
		return info, fmt.Errorf("duckdb database size: %w", err)
	}
	if len(rows) == 1 {
		info.Settings["database_size"], info.Settings["block_size"], info.Settings["wal_size"] = rows[0][0], rows[0][1], rows[0][2]
	}
	info.Settings["path"] = e.path
	if e.path == "" {
		info.Settings["path"] = memoryPath
	}

	info.BufferPoolBytes, err = parseSize(info.Settings["memory_limit"])
	if err != nil {
		return info, fmt.Errorf("duckdb memory_limit: %w", err)
	}
	return info, nil
}

var sizeUnits = map[string]float64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// parseSize reads a size the way DuckDB prints one ("953.6 MiB", "1.0 GB",
// "0 bytes") into bytes.
func parseSize(s string) (int64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(s), " ")
	mult, ok := sizeUnits[strings.ToLower(strings.TrimSpace(unit))]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q", s, unit)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("size %q: not a number of bytes", s)
	}
	return int64(f * mult), nil
}
