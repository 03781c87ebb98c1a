package dbms

import "runtime/debug"

// pinned holds the versions in go.mod, for builds without module build
// information (go test binaries report no dependency versions).
var pinned = map[string]string{
	"github.com/jackc/pgx/v5":         "v5.12.0",
	"github.com/go-sql-driver/mysql":  "v1.10.1",
	"github.com/mattn/go-sqlite3":     "v1.14.53",
	"github.com/duckdb/duckdb-go/v2":  "v2.10505.0",
	"github.com/nakagami/firebirdsql": "v0.9.23",
}

// ModuleVersion returns the version of a dependency compiled into this binary.
func ModuleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return pinned[path]
}
