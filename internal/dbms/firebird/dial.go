package firebird

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/nakagami/firebirdsql"

	"github.com/dbgauge/dbgauge/internal/dbms/blockio"
)

// dialingConnector opens every connection of the session's pool (its own,
// and the side connection Interrupt uses) on a blocking socket of socks: the
// client I/O path of package blockio. The driver takes the dial function
// from the connect's context (the patch in third_party/firebirdsql).
type dialingConnector struct {
	driver.Connector
	socks *blockio.Group
}

func (c dialingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	return c.Connector.Connect(firebirdsql.WithDialFunc(ctx, c.socks.Dial))
}

// openDB is the session's pool on the driver's own connector, wrapped.
func openDB(dsn string, socks *blockio.Group) (*sql.DB, error) {
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, err
	}
	dc, ok := db.Driver().(driver.DriverContext)
	db.Close()
	if !ok {
		return nil, fmt.Errorf("the %s driver opens no connector", driverName)
	}
	connector, err := dc.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(dialingConnector{Connector: connector, socks: socks}), nil
}

// Abort breaks the session's connections from any goroutine (dbms.Aborter):
// a call blocked in one returns at once.
func (e *Engine) Abort() { e.socks.Abort() }
