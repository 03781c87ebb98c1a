package mysql

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// SetStatementLimit makes the server abort statements running longer than
// d: MariaDB's max_statement_time (seconds, every statement), MySQL's
// max_execution_time (milliseconds, SELECT only).
func (e *Engine) SetStatementLimit(ctx context.Context, d time.Duration) error {
	v, err := e.QueryValue(ctx, "SELECT VERSION()")
	if err != nil {
		return err
	}
	q := fmt.Sprintf("SET SESSION max_statement_time = %g", d.Seconds())
	if !strings.Contains(strings.ToLower(v), "mariadb") {
		q = fmt.Sprintf("SET SESSION max_execution_time = %d", d.Milliseconds())
	}
	_, err = e.Exec(ctx, q)
	return err
}
