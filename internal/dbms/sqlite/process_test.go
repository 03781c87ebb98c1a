package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

func TestQueryProcessAndExplain(t *testing.T) {
	e := openSession(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	dbmstest.CheckProcess(t, context.Background(), e)
	dbmstest.CheckExplain(t, context.Background(), e, "ex_acct", true)
}
