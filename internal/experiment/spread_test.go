package experiment

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// A URL naming a plain private MariaDB twice, as if it were a cluster's
// nodes: refused as bad input for what the server is (one that
// replicates nothing), not blamed on Galera, before anything runs.
func TestSpreadRefusesPlainServers(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hp := fmt.Sprintf("127.0.0.1:%d", inst.Port)
	two := strings.Replace(inst.URL, "@"+hp+"/", "@"+hp+","+hp+"/", 1)
	if two == inst.URL {
		t.Fatalf("instance URL %s does not name %s", inst.URL, hp)
	}
	s, err := newSpread(ctx, two, SpreadRoundRobin)
	if err == nil {
		t.Fatalf("spread over %s: %+v, want a refusal", two, s.nodes)
	}
	if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), "replicates nothing") || strings.Contains(err.Error(), "Galera") {
		t.Errorf("refusal %q (%v), want bad input saying the server replicates nothing, and no word of Galera", err, dbms.Classify(err))
	}
	if _, err := newSpread(ctx, inst.URL, SpreadRoundRobin); err != nil {
		t.Errorf("one host: %v", err)
	}
}
