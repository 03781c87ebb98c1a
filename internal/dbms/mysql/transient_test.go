package mysql

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestTransientClasses: a server at its connection limit refuses the next
// session with 1040 (too_many_connections, a fault a load client waits
// out, not bad input); a port nothing listens on is bad input at the start
// of a run and connection_refused underneath (dbms.NetworkClass).
func TestTransientClasses(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{Settings: map[string]string{"max_connections": "10"}}) // its least
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// root may exceed the limit (CONNECTION ADMIN): an ordinary user may not.
	admin, err := dbms.Open(ctx, inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE USER u IDENTIFIED BY 'pw'", "GRANT ALL ON dbgauge.* TO u"} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	admin.Close()
	url := fmt.Sprintf("mysql://u:pw@127.0.0.1:%d/dbgauge", inst.Port)
	var held []dbms.Engine
	defer func() {
		for _, e := range held {
			e.Close()
		}
	}()
	for range 20 {
		var e dbms.Engine
		if e, err = dbms.Open(ctx, url); err != nil {
			break
		}
		held = append(held, e)
	}
	if c := dbms.Classify(err); c != dbms.TooManyConnections || !c.Transient() {
		t.Errorf("session %d over the limit: %v is %v, want too_many_connections", len(held)+1, err, c)
	}

	closed, _ := server.FreePort()
	_, err = dbms.Open(ctx, fmt.Sprintf("mysql://root@127.0.0.1:%d/dbgauge", closed))
	if dbms.Classify(err) != dbms.BadInput || dbms.NetworkClass(err) != dbms.Refused {
		t.Errorf("closed port: %v is %v / %v, want bad_input at the start and connection_refused underneath", err, dbms.Classify(err), dbms.NetworkClass(err))
	}
}
