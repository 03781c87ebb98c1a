// Package all registers every workload; import it for its side effect
// (the command's main and the tests that run a sweep do).
package all

import (
	_ "github.com/dbgauge/dbgauge/internal/workload/orders"
	_ "github.com/dbgauge/dbgauge/internal/workload/tpcb"
	_ "github.com/dbgauge/dbgauge/internal/workload/userscript"
)
