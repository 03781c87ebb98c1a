package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSweepThroughExistingNATS: with --nats the master embeds no server but
// joins the NATS named (here a real nats-server this test runs on
// loopback, with a token), and the agents dial the same.
func TestSweepThroughExistingNATS(t *testing.T) {
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT, NoLog: true, NoSigs: true,
		Authorization: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	defer ns.Shutdown()
	url := ns.ClientURL()
	t.Setenv(tokenEnv, "s3cret")
	inst := servertest.Start(t, "postgres", server.Options{})
	out := filepath.Join(t.TempDir(), "run")
	master := startProc(t, "master", os.Args[0], "dsbench", "--db", inst.URL, "--nodes", "2", "--nats", url,
		"--mode", "select", "--scales", "1", "--cycles", "2", "--duration", "1s", "--threads", "1", "--out", out)
	master.waitLine(`waiting up to .* agents at ` + url)
	var agents []*proc
	for _, n := range []string{"a", "b"} {
		agents = append(agents, startProc(t, "agent "+n, os.Args[0], "agent", "--master", url, "--name", n, "--dir", t.TempDir()))
	}
	if code := master.wait(); code != ExitOK {
		t.Fatalf("master: exit %d:\n%s", code, master.stderr())
	}
	for _, a := range agents {
		if code := a.wait(); code != ExitOK {
			t.Errorf("%s: exit %d:\n%s", a.name, code, a.stderr())
		}
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, "results.json"))
	if !res.Complete || len(res.Agents) != 2 || len(res.Scales) != 1 || len(res.Scales[0].NodeCycles) != 2 {
		t.Fatalf("complete %v, error %q, %d agents", res.Complete, res.Error, len(res.Agents))
	}
	countsAddUp(t, res.Scales[0])
}
