package script

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestMariaDB runs pgbench's built-in scripts on a private MariaDB, whose
// SQL has no END: the script's END is the adapter's commit.
func TestMariaDB(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	open := func() dbms.Engine { return openURL(t, ctx, inst.URL) }
	t.Run("Builtins", func(t *testing.T) { checkBuiltins(t, ctx, open, dbms.RepeatableRead) })
	t.Run("PipelineRefused", func(t *testing.T) { checkPipelineRefused(t, open()) })
}

// TestFirebird runs pgbench's built-in scripts on a private Firebird, which
// has no BEGIN statement: the script's BEGIN is the adapter's transaction
// start; and an update conflict under SNAPSHOT is retried.
func TestFirebird(t *testing.T) {
	inst := servertest.Start(t, "firebird", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	open := func() dbms.Engine { return openURL(t, ctx, inst.URL) }
	t.Run("Builtins", func(t *testing.T) { checkBuiltins(t, ctx, open, dbms.RepeatableRead) })
	t.Run("Retry", func(t *testing.T) { checkRetry(t, ctx, open) })
	t.Run("PipelineRefused", func(t *testing.T) { checkPipelineRefused(t, open()) })
}
