package script

import (
	"context"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPostgres runs the script runtime on a private PostgreSQL, one
// instance for all its parts.
func TestPostgres(t *testing.T) {
	ctx, url, open := private(t, "postgres")
	t.Run("Builtins", func(t *testing.T) { checkBuiltins(t, ctx, open, dbms.ReadCommitted) })
	t.Run("Retry", func(t *testing.T) { checkRetry(t, ctx, open) })
	t.Run("Pipeline", func(t *testing.T) { testPipeline(t, ctx, open) })
	t.Run("SameAsPgbench", func(t *testing.T) { testSameAsPgbench(t, ctx, url, open) })
	t.Run("ChoiceAsPgbench", func(t *testing.T) { testChoiceAsPgbench(t, ctx, url, open) })
	t.Run("TextBegin", func(t *testing.T) { checkTextBegin(t, ctx, open(), "BEGIN READ WRITE") })
	t.Run("Compound", func(t *testing.T) { testCompound(t, ctx, open) })
}

// TestMariaDB runs pgbench's built-in scripts on a private MariaDB, whose
// SQL has no END: the script's END is the adapter's commit.
func TestMariaDB(t *testing.T) {
	ctx, _, open := private(t, "mariadb")
	t.Run("Builtins", func(t *testing.T) { checkBuiltins(t, ctx, open, dbms.RepeatableRead) })
	t.Run("PipelineRefused", func(t *testing.T) { checkPipelineRefused(t, open()) })
	t.Run("TextBegin", func(t *testing.T) { checkTextBegin(t, ctx, open(), "START TRANSACTION WITH CONSISTENT SNAPSHOT") })
}

// TestFirebird runs pgbench's built-in scripts on a private Firebird, which
// has no BEGIN statement: the script's BEGIN is the adapter's transaction
// start; and an update conflict under SNAPSHOT is retried.
func TestFirebird(t *testing.T) {
	ctx, _, open := private(t, "firebird")
	t.Run("Builtins", func(t *testing.T) { checkBuiltins(t, ctx, open, dbms.RepeatableRead) })
	t.Run("Retry", func(t *testing.T) { checkRetry(t, ctx, open) })
	t.Run("PipelineRefused", func(t *testing.T) { checkPipelineRefused(t, open()) })
}

// private starts a private server of engine for the test and returns a
// context for the test's work, the server's URL and a way to open a
// session on it (closed at the test's end).
func private(t *testing.T, engine string) (context.Context, string, func() dbms.Engine) {
	inst := servertest.Start(t, engine, server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx, inst.URL, func() dbms.Engine { return openURL(t, ctx, inst.URL) }
}
