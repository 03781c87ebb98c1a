package sqlite

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.PageSizer = (*Engine)(nil)

// PageSizeKnob says how a page size is chosen.
func (e *Engine) PageSizeKnob() string {
	return "a new database file per page size, PRAGMA page_size before the first table"
}

// CreatePageSizeDB opens a new database file beside u's (with u's
// parameters) and sets its page size before the first table, when the
// empty file takes it. drop removes the file and its journals.
func (e *Engine) CreatePageSizeDB(ctx context.Context, u *dbms.URL, ps int64) (dbms.Engine, func() error, error) {
	path := dbms.PageDBPath(u.Path, ps)
	drop := func() error {
		var last error
		for _, sfx := range []string{"", "-wal", "-shm", "-journal"} {
			if err := os.Remove(path + sfx); err != nil && !os.IsNotExist(err) {
				last = err
			}
		}
		return last
	}
	if err := drop(); err != nil {
		return nil, nil, err
	}
	raw := "sqlite:" + path
	if len(u.Query) > 0 {
		raw += "?" + u.Query.Encode()
	}
	ne, err := dbms.Open(ctx, raw)
	if err != nil {
		return nil, nil, err
	}
	if _, err := ne.Exec(ctx, fmt.Sprintf("PRAGMA page_size = %d", ps)); err != nil {
		ne.Close()
		drop()
		return nil, nil, err
	}
	return ne, drop, nil
}

// PageSize is PRAGMA page_size.
func (e *Engine) PageSize(ctx context.Context) (int64, error) {
	v, err := dbms.FirstValue(ctx, e, "PRAGMA page_size")
	if err != nil {
		return 0, fmt.Errorf("read the page size: %w", err)
	}
	return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
}
