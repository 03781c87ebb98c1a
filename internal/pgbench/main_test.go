package pgbench

import _ "github.com/dbgauge/dbgauge/internal/dbms/all" // every engine, as the command has them
