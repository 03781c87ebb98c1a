package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestTransientClasses: the faults a load client waits out are told apart.
// A server at its connection limit refuses the next session with 53300
// (too_many_connections); a port nothing listens on is bad input at the
// start of a run and connection_refused underneath (dbms.NetworkClass),
// which is how a run that has measured sees a restarting server.
func TestTransientClasses(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{Settings: map[string]string{
		"max_connections": "3", "superuser_reserved_connections": "0",
	}})
	ctx := context.Background()
	var held []dbms.Engine
	defer func() {
		for _, e := range held {
			e.Close()
		}
	}()
	var err error
	for range 10 {
		var e dbms.Engine
		if e, err = dbms.Open(ctx, inst.URL); err != nil {
			break
		}
		held = append(held, e)
	}
	if c := dbms.Classify(err); c != dbms.TooManyConnections || !c.Transient() {
		t.Errorf("session %d over the limit: %v is %v, want too_many_connections", len(held)+1, err, c)
	}

	closed, _ := server.FreePort()
	err = openErr(t, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/dbgauge", closed))
	if dbms.Classify(err) != dbms.BadInput || dbms.NetworkClass(err) != dbms.Refused {
		t.Errorf("closed port: %v is %v / %v, want bad_input at the start and connection_refused underneath", err, dbms.Classify(err), dbms.NetworkClass(err))
	}
}
