package firebirdsql

// dbgauge's patch (the only change to upstream v0.9.23; see PATCHES.md):
// the connection's socket comes from a dial function carried by the
// connect's context, so that dbgauge can hand the driver a blocking socket
// (its client I/O path) as pgx's DialFunc and go-sql-driver/mysql's
// Config.DialFunc allow.

import (
	"context"
	"net"
)

// DialFunc dials the server.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

type dialFuncKey struct{}

// WithDialFunc returns ctx carrying dial: a connect under it (a
// driver.Connector's Connect) opens its socket with dial instead of
// net.Dialer.
func WithDialFunc(ctx context.Context, dial DialFunc) context.Context {
	return context.WithValue(ctx, dialFuncKey{}, dial)
}

func dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if dial, ok := ctx.Value(dialFuncKey{}).(DialFunc); ok && dial != nil {
		return dial(ctx, network, address)
	}
	return (&net.Dialer{}).DialContext(ctx, network, address)
}
