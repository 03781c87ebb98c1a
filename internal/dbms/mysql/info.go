package mysql

import (
	"context"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

const (
	driverModule = "github.com/go-sql-driver/mysql"
	// driverPinned is the version in go.mod, for binaries (and tests) whose
	// build info lists no dependencies.
	driverPinned = "v1.10.1"
)

// infoVariables are the server variables that shape a benchmark's result:
// cache sizes, page size, durability, and what the load path may use.
// tx_isolation is MariaDB's name, transaction_isolation MySQL's.
var infoVariables = []string{
	"version", "version_comment",
	"innodb_buffer_pool_size", "innodb_page_size", "innodb_log_file_size",
	"innodb_flush_log_at_trx_commit", "innodb_flush_method", "innodb_doublewrite",
	"innodb_adaptive_hash_index", "innodb_change_buffering",
	"sync_binlog", "log_bin",
	"query_cache_type", "query_cache_size",
	"local_infile", "max_allowed_packet",
	"default_storage_engine", "character_set_server", "collation_server",
	"tx_isolation", "transaction_isolation",
}

// Info reports the server version and settings. Variables a server does not
// have (query_cache_type on MySQL 8) are simply absent: SHOW VARIABLES with a
// name list, unlike SELECT @@name, does not fail on them.
func (e *Engine) Info(ctx context.Context) (dbms.Info, error) {
	quoted := make([]string, len(infoVariables))
	for i, v := range infoVariables {
		quoted[i] = dbms.Quote(v)
	}
	rows, err := e.QueryRows(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil {
		return dbms.Info{}, err
	}
	info := dbms.Info{Engine: "mysql", Driver: driverModule, DriverVersion: driverVersion(), Settings: map[string]string{}}
	for _, r := range rows {
		if len(r) == 2 {
			info.Settings[r[0]] = r[1]
		}
	}
	// The version says which product this is ("10.11.19-MariaDB-..." or
	// "8.0.36"); Engine stays the adapter name, as for every adapter.
	info.Version = info.Settings["version"]
	info.BufferPoolBytes, _ = strconv.ParseInt(info.Settings["innodb_buffer_pool_size"], 10, 64)
	if e.loadPath != "" {
		info.Settings["load_path"] = e.loadPath
	}
	return info, nil
}

func driverVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == driverModule {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return driverPinned
}

// FlushCache empties what MariaDB/MySQL can empty without a restart: open
// table handles and, where enabled, the query cache. The InnoDB buffer pool
// has no flush command, so a cold-cache measurement needs a restart.
func (e *Engine) FlushCache(ctx context.Context) (done, notDone []string, err error) {
	if _, err := e.Exec(ctx, "FLUSH TABLES"); err != nil {
		return nil, nil, err
	}
	done = append(done, "FLUSH TABLES: closed open tables and emptied the table cache")
	qc, err := e.QueryRows(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('query_cache_type', 'query_cache_size')")
	if err != nil {
		return done, nil, err
	}
	vars := map[string]string{}
	for _, r := range qc {
		vars[r[0]] = r[1]
	}
	switch {
	case len(vars) == 0:
		notDone = append(notDone, "query cache: this server has none (removed in MySQL 8)")
	case vars["query_cache_type"] == "OFF" || vars["query_cache_size"] == "0":
		done = append(done, "query cache: disabled, nothing to empty")
	default:
		if _, err := e.Exec(ctx, "RESET QUERY CACHE"); err != nil {
			return done, nil, err
		}
		done = append(done, "RESET QUERY CACHE: emptied the query cache")
	}
	notDone = append(notDone,
		"InnoDB buffer pool: cannot be emptied without restarting the server (restart the instance for a cold cache)",
		"operating system page cache: outside the engine (drop it as root with /proc/sys/vm/drop_caches)")
	return done, notDone, nil
}
