package dbms

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// PageSizer is an engine whose page size is chosen when a database is
// created. The speedup experiment's page-size part calls it to create one
// database per page size beside the one --db names, measure on it and
// remove it; an engine without it is "not applicable" there.
type PageSizer interface {
	// PageSizeKnob says in words how a page size is chosen, for the run's
	// record.
	PageSizeKnob() string
	// CreatePageSizeDB creates a new, empty database with pages of ps bytes
	// beside the one u names (its file named by PageDBPath), removing one
	// left there by an earlier run, and opens a session to it. drop removes
	// the database again; the caller closes the session first.
	CreatePageSizeDB(ctx context.Context, u *URL, ps int64) (e Engine, drop func() error, err error)
	// PageSize reads the page size of the session's database, in bytes.
	PageSize(ctx context.Context) (int64, error)
}

// FixedPageSize is an engine whose page size dbgauge cannot choose that
// says why, for the page-size part's "not applicable" record (the
// caller's default names the engine and says it lets choose no page
// size).
type FixedPageSize interface {
	FixedPageSize() string
}

// PageDBPath is the database of page size ps beside path: stem-pageN.ext.
func PageDBPath(path string, ps int64) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-page%d%s", strings.TrimSuffix(path, ext), ps, ext)
}
