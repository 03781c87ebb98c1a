package nodes

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Listen is where the master's embedded NATS server listens and how it
// admits agents.
type Listen struct {
	// Addr is HOST:PORT (port 0: any free port).
	Addr string
	// Token, if set, is required of every client; TLS, if set, is the
	// server's certificate (see CheckExposure for when both are required).
	Token string
	TLS   *tls.Config
	// log, if set, is told of every client refused for its token.
	log func(format string, args ...any)
}

// Embedded is a NATS server running inside the master's process.
type Embedded struct {
	srv *server.Server
	// URL is the address agents dial (nats://HOST:PORT, tls:// with TLS).
	URL string
}

// StartEmbedded starts a NATS server on l.Addr and waits until it accepts
// connections.
func StartEmbedded(l Listen) (*Embedded, error) {
	host, port, err := net.SplitHostPort(l.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", l.Addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: port %q is not a number", l.Addr, port)
	}
	if p == 0 {
		p = server.RANDOM_PORT // nats-server reads 0 as its default, 4222
	}
	opts := &server.Options{
		Host: host, Port: p, NoLog: true, NoSigs: true,
		// Per-cycle reports carry histograms of a few KB each; the
		// default 1 MB leaves room for thousands of threads per node.
		MaxPayload: 8 << 20,
		// Agents that reconnect after a partition are the same agents.
		MaxControlLine: 4096,
		Authorization:  l.Token,
		TLSConfig:      l.TLS,
		TLS:            l.TLS != nil,
	}
	if l.TLS != nil {
		opts.TLSTimeout = 5
	}
	if l.Token != "" && l.log != nil {
		opts.Authorization, opts.CustomClientAuthentication = "", tokenAuth{token: l.Token, log: l.log}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("NATS server on %s: %w", l.Addr, err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("NATS server on %s: not listening after 10 s (is the address this machine's and the port free?)", l.Addr)
	}
	scheme := "nats"
	if l.TLS != nil {
		scheme = "tls"
	}
	a := srv.Addr().(*net.TCPAddr)
	return &Embedded{srv: srv, URL: fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(host, strconv.Itoa(a.Port)))}, nil
}

// Close shuts the server down (agents see the master go silent).
func (e *Embedded) Close() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// Dial is how a master or an agent connects to NATS.
type Dial struct {
	URL, Token string
	// CAFile, if set, is the certificate authority that signed the
	// server's certificate (a self-signed certificate itself will do).
	CAFile string
	// Name names the connection in the server's monitoring.
	Name string
	// inProcess, if set, is the embedded server the master talks to
	// without a socket (and without TLS to itself).
	inProcess    *server.Server
	inProcessTLS bool
}

// Try connects once and closes at once: a command checks --nats before
// anything starts (a server that is not there, refuses the token or
// whose certificate is not trusted is the user's to fix).
func (d Dial) Try() error {
	nc, err := d.connect()
	if err != nil {
		return err
	}
	nc.Close()
	return nil
}

// connect opens a NATS connection that keeps trying to reconnect for as long
// as the caller keeps it: a partition heals without the agent starting over.
func (d Dial) connect() (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name(d.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(5 * time.Second),
		// Heartbeats and reports are tiny; a slow consumer is a stuck
		// process, which the heartbeats reveal.
		nats.PingInterval(2 * time.Second),
		nats.MaxPingsOutstanding(3),
	}
	if d.Token != "" {
		opts = append(opts, nats.Token(d.Token))
	}
	if d.inProcess != nil {
		opts = append(opts, nats.InProcessServer(d.inProcess))
		if d.inProcessTLS {
			// A pipe inside this process: nobody can stand between the
			// master and its own server, so there is nothing to verify.
			opts = append(opts, nats.Secure(&tls.Config{InsecureSkipVerify: true})) //nolint:gosec
		}
	}
	if d.CAFile != "" {
		opts = append(opts, nats.RootCAs(d.CAFile))
	}
	nc, err := nats.Connect(d.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", d.URL, err)
	}
	return nc, nil
}

// ErrExposed is returned by CheckExposure.
var ErrExposed = errors.New("not loopback")

// CheckExposure refuses to listen on, or dial, an address other than
// loopback without a token and TLS: load agents take orders from whoever
// talks to them, including the database URL with its password.
func CheckExposure(host string, token string, tls bool) error {
	if isLoopback(host) {
		return nil
	}
	switch {
	case token == "" && !tls:
		return fmt.Errorf("%w: %s needs a token and TLS", ErrExposed, host)
	case token == "":
		return fmt.Errorf("%w: %s needs a token", ErrExposed, host)
	case !tls:
		return fmt.Errorf("%w: %s needs TLS", ErrExposed, host)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
