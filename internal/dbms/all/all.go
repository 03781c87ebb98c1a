// Package all registers every engine adapter; import it for its side effect.
package all

import (
	_ "github.com/dbgauge/dbgauge/internal/dbms/duckdb"
	_ "github.com/dbgauge/dbgauge/internal/dbms/firebird"
	_ "github.com/dbgauge/dbgauge/internal/dbms/mysql"
	_ "github.com/dbgauge/dbgauge/internal/dbms/postgres"
	_ "github.com/dbgauge/dbgauge/internal/dbms/sqlite"
)
