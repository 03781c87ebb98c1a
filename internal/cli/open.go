package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// openEngine opens --db; its errors are classified (bad input exits 2).
func openEngine(cmd *cobra.Command, db string) (dbms.Engine, error) {
	return dbms.Open(cmd.Context(), db)
}
