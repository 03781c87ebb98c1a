package firebird

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// infoQuery reads what a benchmark record needs from MON$DATABASE, the
// database as the server has it open (page buffers there are the cache in
// use, whichever of firebird.conf, databases.conf or the header set it).
const infoQuery = `SELECT rdb$get_context('SYSTEM', 'ENGINE_VERSION'),
 MON$PAGE_SIZE, MON$PAGE_BUFFERS, MON$FORCED_WRITES, MON$ODS_MAJOR, MON$ODS_MINOR,
 MON$SQL_DIALECT, MON$SWEEP_INTERVAL, MON$READ_ONLY, MON$DATABASE_NAME,
 (SELECT COUNT(*) FROM MON$ATTACHMENTS WHERE MON$SYSTEM_FLAG = 1 AND MON$USER = 'Cache Writer')
 FROM MON$DATABASE`

// Info reports the engine version and the settings that shape performance.
func (e *Engine) Info(ctx context.Context) (dbms.Info, error) {
	rows, err := e.QueryRows(ctx, infoQuery)
	if err != nil {
		return dbms.Info{}, fmt.Errorf("firebird info: %w", err)
	}
	if len(rows) != 1 || len(rows[0]) != 11 {
		return dbms.Info{}, fmt.Errorf("firebird info: MON$DATABASE returned %d rows", len(rows))
	}
	r := rows[0]
	pageSize, _ := strconv.ParseInt(r[1], 10, 64)
	buffers, _ := strconv.ParseInt(r[2], 10, 64)
	info := dbms.Info{
		Engine:        "firebird",
		Version:       r[0],
		Driver:        driverModule,
		DriverVersion: dbms.ModuleVersion(driverModule),
		Settings: map[string]string{
			"page_size":      r[1],
			"page_buffers":   r[2],
			"forced_writes":  onOff(r[3]),
			"ods_version":    r[4] + "." + r[5],
			"sql_dialect":    r[6],
			"sweep_interval": r[7],
			"read_only":      onOff(r[8]),
			"database":       r[9],
			"server_mode":    serverMode(r[10]),
		},
		BufferPoolBytes: pageSize * buffers,
	}
	return info, nil
}

func onOff(flag string) string {
	if flag == "1" {
		return "on"
	}
	return "off"
}

// serverMode infers ServerMode, which no SQL shows in Firebird 3: only
// SuperServer runs a cache writer thread (a system attachment).
func serverMode(cacheWriters string) string {
	if cacheWriters != "0" {
		return "Super"
	}
	return "Classic or SuperClassic"
}
