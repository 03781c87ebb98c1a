package cli

import (
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Runs stored before results said what their workload is are named by
// the registered workload of their mode: results must not know the
// workloads, the command knows both.
func init() { results.SetTitler(workload.Title) }
