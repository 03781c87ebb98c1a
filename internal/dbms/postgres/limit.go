package postgres

import (
	"context"
	"fmt"
	"time"
)

// SetStatementLimit sets statement_timeout: the server cancels any statement
// running longer than d and the session stays usable.
func (e *Engine) SetStatementLimit(ctx context.Context, d time.Duration) error {
	ms := d.Milliseconds()
	if d > 0 && ms == 0 {
		ms = 1 // 0 would switch the limit off
	}
	_, err := e.Exec(ctx, fmt.Sprintf("SET statement_timeout = %d", ms))
	return err
}
