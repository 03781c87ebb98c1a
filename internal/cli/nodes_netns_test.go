package cli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/netns"
	"github.com/dbgauge/dbgauge/internal/netns/netnstest"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestSweepFromThreeNamespaces is a sweep from three load machines on one:
// a master on the host and three agents, each in a network namespace of
// its own joined to the others by a bridge the test creates and removes,
// with a token and TLS (the bridge is not loopback). The load goes only to
// a private PostgreSQL listening on the bridge's address. Per cycle the
// merged counts are the sum of the nodes'; the interval logs, read back
// with hdrhistogram-go, give the same totals per node and merged; every
// agent's sessions came from its own namespace; the node diagram is drawn.
func TestSweepFromThreeNamespaces(t *testing.T) {
	nt := netnstest.ForTest(t, 3)
	inst, dbURL := bridgedPostgres(t, nt)
	token := "t0ken-" + fmt.Sprint(time.Now().UnixNano())
	t.Setenv(tokenEnv, token)
	cert, key := selfSigned(t, nt.HostIP())
	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	agents := make([]*nsAgent, 3)
	lines, _, code := runWatching(t, []string{"dsbench", "--db", dbURL, "--nodes", "3", "--listen", nt.HostIP() + ":0",
		"--tls-cert", cert, "--tls-key", key, "--agent-timeout", "60s",
		"--scales", "1,2", "--cycles", "3", "--duration", "2s", "--threads", "2", "--out", out},
		func(line string, _ *os.Process) {
			// The master says where it waits: start the agents then.
			if m := regexp.MustCompile(`at (tls://\S+)`).FindStringSubmatch(line); m != nil && agents[0] == nil {
				for i := range agents {
					agents[i] = startAgent(t, ctx, nt, i+1, m[1], cert)
				}
			}
		})
	if code != 0 {
		t.Fatalf("dsbench exit %d:\n%s", code, strings.Join(lines, "\n"))
	}
	for _, a := range agents {
		if code := a.wait(); code != 0 {
			t.Errorf("agent %s: exit %d\n%s", a.name, code, a.stderr())
		}
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, "results.json"))
	if len(res.Agents) != 3 {
		t.Fatalf("%d agents in results.json, want 3", len(res.Agents))
	}
	for i, a := range res.Agents {
		if a.Name != fmt.Sprintf("ns%d", i+1) || a.Node != i || a.Status != "ok" || a.ClockErrorMS <= 0 {
			t.Errorf("agent %d: %+v", i, a)
		}
		t.Logf("agent %s: clock offset %+.3f ms +- %.3f ms, heartbeats lost %d", a.Name, a.ClockOffsetMS, a.ClockErrorMS, a.HeartbeatsLost)
	}
	for _, s := range res.Scales {
		if !s.Consistent || len(s.NodeCycles) != 3 || len(s.NodeRates) != 3 {
			t.Fatalf("scale %d: consistent %v, %d node cycles, %d node rates", s.Scale, s.Consistent, len(s.NodeCycles), len(s.NodeRates))
		}
		// The clients' CPU is the agents', measured by each.
		for _, nr := range s.NodeRates {
			if nr.ClientCPUS <= 0 || nr.ClientCPUPerTxUS == nil {
				t.Errorf("scale %d node %s: client CPU %v s, per transaction %v", s.Scale, nr.Name, nr.ClientCPUS, nr.ClientCPUPerTxUS)
			}
		}
		if s.ClientCPUPerTxUS == nil || s.ClientCPUShare != nil {
			t.Errorf("scale %d: client CPU per transaction %v (want the agents'), share %v (want unknown)", s.Scale, s.ClientCPUPerTxUS, s.ClientCPUShare)
		}
		perCycle := map[int]int64{}
		for _, d := range s.CycleDetail {
			perCycle[d.Cycle] += d.Committed
		}
		for _, c := range s.NodeCycles {
			var sum int64
			for _, n := range c.Nodes {
				if n.Transactions == 0 {
					t.Errorf("scale %d cycle %d: node %s committed nothing", s.Scale, c.Cycle, n.Name)
				}
				sum += n.Transactions
			}
			if sum != perCycle[c.Cycle] {
				t.Errorf("scale %d cycle %d: the nodes' transactions sum to %d, the cycle has %d", s.Scale, c.Cycle, sum, perCycle[c.Cycle])
			}
			t.Logf("scale %d cycle %d: start spread %.3f ms", s.Scale, c.Cycle, c.StartSpreadMS)
		}
		// The interval logs, read back: per cycle the nodes' totals add
		// up to the merged log's, and all of it to the scale's count.
		merged := intervalTotals(t, filepath.Join(out, s.HistogramFile))
		nodeSum := make([]int64, len(merged))
		var nodesTx int64
		for _, nr := range s.NodeRates {
			for i, n := range intervalTotals(t, filepath.Join(out, nr.HistogramFile)) {
				nodeSum[i] += n
			}
			nodesTx += nr.Transactions
		}
		var total int64
		for i := range merged {
			if merged[i] != nodeSum[i] {
				t.Errorf("scale %d interval %d: merged log %d, node logs %d", s.Scale, i+1, merged[i], nodeSum[i])
			}
			total += merged[i]
		}
		if total != s.Transactions || nodesTx != s.Transactions || len(merged) != 3 {
			t.Errorf("scale %d: %d transactions, merged log %d over %d intervals, nodes %d", s.Scale, s.Transactions, total, len(merged), nodesTx)
		}
	}
	// Every agent loaded the server from its own namespace's address.
	log, err := os.ReadFile(filepath.Join(inst.Dir, "postgres.log"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if !bytes.Contains(log, []byte("connection received: host="+nt.IP(i)+" ")) {
			t.Errorf("the server saw no session from namespace %d (%s)", i, nt.IP(i))
		}
	}
	if st, err := os.Stat(filepath.Join(out, "node.svg")); err != nil || st.Size() == 0 {
		t.Errorf("node diagram: %v", err)
	}
	// Each agent kept its own interval log.
	for _, a := range agents {
		logs, _ := filepath.Glob(filepath.Join(a.dir, "*", a.name+"-scale*.hlog"))
		if len(logs) != 2 {
			t.Errorf("agent %s kept %d interval logs, want 2 (one per scale)", a.name, len(logs))
		}
	}
}

// bridgedPostgres starts a private PostgreSQL that also listens on the
// bridge's address and trusts the namespaces' /24; it logs every
// connection with its client address.
func bridgedPostgres(t *testing.T, nt *netns.Net) (*server.Instance, string) {
	t.Helper()
	inst := servertest.Start(t, "postgres", server.Options{Settings: map[string]string{
		"listen_addresses": "127.0.0.1," + nt.HostIP(), "log_connections": "on"}})
	subnet := nt.HostIP()[:strings.LastIndexByte(nt.HostIP(), '.')] + ".0/24"
	hba, err := os.OpenFile(filepath.Join(inst.Dir, "data", "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(hba, "host all all %s trust\n", subnet)
	hba.Close()
	e, err := dbms.Open(context.Background(), inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Exec(context.Background(), "SELECT pg_reload_conf()"); err != nil {
		t.Fatal(err)
	}
	return inst, strings.Replace(inst.URL, "127.0.0.1", nt.HostIP(), 1)
}

// nsAgent is a dbgauge agent running in namespace i, with its own --dir.
type nsAgent struct {
	*proc
	dir string
}

func startAgent(t *testing.T, ctx context.Context, nt *netns.Net, i int, url, ca string) *nsAgent {
	a := &nsAgent{dir: t.TempDir()}
	name := fmt.Sprintf("ns%d", i)
	a.proc = startCmd(t, name, nt.Command(ctx, i, os.Args[0], "agent", "--master", url, "--name", name, "--tls-ca", ca, "--dir", a.dir, "--wait", "60s"))
	return a
}

// intervalTotals reads an HdrHistogram interval log with hdrhistogram-go:
// the count of each interval.
func intervalTotals(t *testing.T, path string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := hdr.NewHistogramLogReader(f)
	var out []int64
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h == nil {
			return out
		}
		out = append(out, h.TotalCount())
	}
}

// selfSigned writes a self-signed certificate for ip and its key; the
// agents take the certificate itself as their authority.
func selfSigned(t *testing.T, ip string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "dbgauge master"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP(ip)},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "master.crt"), filepath.Join(dir, "master.key")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TestPartitionedAgentIsLost cuts one of two agents off the network in the
// middle of a cycle: the master finds it missing, then lost, and ends the
// run keeping what was measured (the cut cycle stored nowhere); the
// agent, hearing nothing from its master for 10 s, stops its load and
// exits 1 by itself.
func TestPartitionedAgentIsLost(t *testing.T) {
	nt := netnstest.ForTest(t, 2)
	_, dbURL := bridgedPostgres(t, nt)
	t.Setenv(tokenEnv, "t0ken")
	cert, key := selfSigned(t, nt.HostIP())
	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	agents := make([]*nsAgent, 2)
	cut := false
	lines, _, code := runWatching(t, []string{"dsbench", "--db", dbURL, "--nodes", "2", "--listen", nt.HostIP() + ":0",
		"--tls-cert", cert, "--tls-key", key, "--mode", "select", "--scales", "1", "--cycles", "2", "--duration", "30s",
		"--threads", "1", "--out", out},
		func(line string, _ *os.Process) {
			if m := regexp.MustCompile(`at (tls://\S+)`).FindStringSubmatch(line); m != nil && agents[0] == nil {
				for i := range agents {
					agents[i] = startAgent(t, ctx, nt, i+1, m[1], cert)
				}
			}
			if !cut && strings.Contains(line, "cycle 1/2") && strings.Contains(line, "committed") {
				cut = true
				if err := nt.Partition(2); err != nil {
					t.Error(err)
				}
			}
		})
	defer nt.Heal(2)
	text := strings.Join(lines, "\n")
	t.Logf("the master's lines:\n%s", text)
	if code != 1 || !cut {
		t.Fatalf("exit %d (want 1), partitioned %v:\n%s", code, cut, text)
	}
	for _, want := range []string{"agent ns2: ", "missing: no heartbeat", "lost: no heartbeat"} {
		if !strings.Contains(text, want) {
			t.Errorf("the master's lines do not say %q:\n%s", want, text)
		}
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, "ns2") || !strings.Contains(last, "cycle 1") {
		t.Errorf("the last line does not name the lost agent and its cycle: %q", last)
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, "results.json"))
	if res.Complete || !strings.Contains(res.Error, "ns2") || len(res.Agents) != 2 || res.Agents[1].Status != "lost" || len(res.Agents[1].Events) < 2 {
		t.Errorf("results.json: complete %v, error %q, agents %+v", res.Complete, res.Error, res.Agents)
	}
	for _, s := range res.Scales {
		if len(s.Cycles) != 0 || len(s.NodeCycles) != 0 {
			t.Errorf("scale %d stores the cut cycle: %d cycle rates, %d node cycles", s.Scale, len(s.Cycles), len(s.NodeCycles))
		}
	}
	// The cut-off agent gave up by itself.
	if code := agents[1].wait(); code != 1 || !strings.Contains(agents[1].stderr(), "silent") {
		t.Errorf("the partitioned agent: exit %d, want 1 naming the master's silence:\n%s", code, agents[1].stderr())
	}
	if code := agents[0].wait(); code != 0 {
		t.Errorf("the other agent: exit %d:\n%s", code, agents[0].stderr())
	}
}
