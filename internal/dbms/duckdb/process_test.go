package duckdb

import (
	"context"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
)

func TestQueryProcessAndExplain(t *testing.T) {
	e, _ := openFile(t)
	dbmstest.CheckProcess(t, context.Background(), e)
	dbmstest.CheckExplain(t, context.Background(), e, "ex_acct", false)
}
