package cli

import (
	"crypto/tls"
	"net"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/nodes"
)

// tokenEnv holds the token when --token is not given: a flag's value shows
// in every process listing.
const tokenEnv = "DBGAUGE_TOKEN"

// nodesFlags are the master's flags of a load from remote agents.
type nodesFlags struct {
	fs                                        *pflag.FlagSet
	listen, natsURL, token, cert, key, caFile string
	agentTimeout                              *flagtype.Value[time.Duration]
	tolerate                                  bool
}

func newNodesFlags() *nodesFlags {
	return &nodesFlags{agentTimeout: flagtype.Duration(2 * time.Minute).WithExample("5m")}
}

func (f *nodesFlags) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.StringVar(&f.listen, "listen", "", "with --nodes: embed a NATS server on HOST:PORT for the agents (dbgauge agent --master nats://HOST:PORT); an address other than loopback needs --token and --tls-cert/--tls-key")
	fl.StringVar(&f.natsURL, "nats", "", "with --nodes: use the existing NATS server at this URL instead of --listen")
	fl.StringVar(&f.token, "token", "", "the token agents must give (default: $"+tokenEnv+"); required on any address but loopback")
	fl.StringVar(&f.cert, "tls-cert", "", "with --listen: the NATS server's TLS certificate (PEM); required on any address but loopback")
	fl.StringVar(&f.key, "tls-key", "", "with --listen: the key of --tls-cert (PEM)")
	fl.StringVar(&f.caFile, "tls-ca", "", "with --nats: the certificate authority of that server's TLS certificate (PEM)")
	fl.Var(f.agentTimeout, "agent-timeout", "with --nodes: how long to wait for the agents to register")
	fl.BoolVar(&f.tolerate, "tolerate-node-loss", false, "go on with the surviving agents when one is lost (no heartbeat for 10 s), flagging the cycle; by default the run ends there, keeping what was measured")
	inGroup(fl, "Remote load nodes", "listen", "nats", "token", "tls-cert", "tls-key", "tls-ca", "agent-timeout", "tolerate-node-loss")
}

// plan checks the remote flags against --nodes and --db: nil for a local
// run.
func (f *nodesFlags) plan(nodeCount int, db string) (*experiment.RemoteNodes, error) {
	remote := f.listen != "" || f.natsURL != ""
	if !remote {
		for _, name := range []string{"token", "tls-cert", "tls-key", "tls-ca", "agent-timeout", "tolerate-node-loss"} {
			if f.fs.Changed(name) {
				return nil, usagef("--%s applies only to remote agents: add --listen HOST:PORT (or --nats URL) or leave --%s out", name, name)
			}
		}
		if nodeCount != 1 {
			return nil, usagef("--nodes %d: more than one node runs on remote agents: add --listen HOST:PORT (an address of this machine the agents reach) and start dbgauge agent on each load machine", nodeCount)
		}
		return nil, nil
	}
	switch {
	case f.listen != "" && f.natsURL != "":
		return nil, usagef("--listen and --nats: give one (--listen embeds a NATS server, --nats uses an existing one)")
	case nodeCount < 1:
		return nil, usagef("--nodes %d: give the number of agents, at least 1", nodeCount)
	case db == "":
		return nil, usagef("--listen/--nats: agents load a server: name it with --db (the embedded default lives in the run directory)")
	case f.agentTimeout.V <= 0:
		return nil, usagef("--agent-timeout %v: give a positive wait, e.g. --agent-timeout 5m", f.agentTimeout.V)
	}
	token := f.token
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	rn := &experiment.RemoteNodes{AgentTimeout: f.agentTimeout.V, TolerateLoss: f.tolerate}
	if f.natsURL != "" {
		if f.cert != "" || f.key != "" {
			return nil, usagef("--tls-cert/--tls-key apply to --listen; with --nats give the server's authority with --tls-ca")
		}
		rn.Dial = nodes.Dial{URL: f.natsURL, Token: token, CAFile: f.caFile, Name: "dbgauge master"}
		if err := rn.Dial.Try(); err != nil {
			return nil, usagef("--nats %s: %v: give the URL of a NATS server that runs (or --listen HOST:PORT to embed one)", f.natsURL, err)
		}
		return rn, nil
	}
	if f.caFile != "" {
		return nil, usagef("--tls-ca applies to --nats; with --listen give --tls-cert and --tls-key")
	}
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return nil, usagef("--listen %q: give HOST:PORT, e.g. --listen 192.0.2.10:4222", f.listen)
	}
	if (f.cert == "") != (f.key == "") {
		return nil, usagef("--tls-cert and --tls-key go together: give both")
	}
	rn.Listen = nodes.Listen{Addr: f.listen, Token: token}
	if f.cert != "" {
		// Read bounded (a path to /dev/zero must not fill memory), then
		// parsed as tls.LoadX509KeyPair would.
		cert, err := readSmallFile("--tls-cert", f.cert, "give a PEM certificate file")
		if err != nil {
			return nil, err
		}
		key, err := readSmallFile("--tls-key", f.key, "give the PEM key file of --tls-cert")
		if err != nil {
			return nil, err
		}
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, usagef("--tls-cert %s / --tls-key %s: %v", f.cert, f.key, err)
		}
		rn.Listen.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	if err := nodes.CheckExposure(host, token, rn.Listen.TLS != nil); err != nil {
		return nil, usagef("--listen %s: %v: add --token (or $%s) and --tls-cert/--tls-key, or listen on 127.0.0.1", f.listen, err, tokenEnv)
	}
	// Listened on and let go at once, so that a port out of range, taken
	// or not this machine's is refused before the run directory is made
	// (a port taken in the moment between is a failure of the run).
	l, err := net.Listen("tcp", f.listen)
	if err != nil {
		return nil, usagef("--listen %s: %v: give an address of this machine and a free port, e.g. --listen 127.0.0.1:4222", f.listen, err)
	}
	l.Close()
	return rn, nil
}
