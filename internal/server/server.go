// Package server starts and stops private local engine instances from the
// operating system's packages: a data directory of its own, a loopback port,
// no systemd. Tests use it, and so do experiments that need to restart an
// engine (cold cache) or set server options. A user's own server never needs it.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Instance is one running private server.
type Instance struct {
	Engine string `json:"engine"`
	Dir    string `json:"dir"`
	Port   int    `json:"port"`
	// URL is what to pass to dbgauge --db: TCP on loopback.
	URL string `json:"url"`
	// SocketURL names the same database through the instance's Unix-domain
	// socket (inside Dir), in the form the engine's own clients take:
	// postgres:///DB?host=SOCKDIR&port=P&user=U (libpq) or
	// mysql://root@unix(SOCKET)/DB. Empty when the instance has no socket
	// (Firebird; a directory path too long for a socket address).
	SocketURL string `json:"socket_url,omitempty"`
	PID       int    `json:"pid"`
	// Settings are the server options it was started with.
	Settings map[string]string `json:"settings,omitempty"`
}

// Options tune a start.
type Options struct {
	// Port to listen on; 0 picks a free loopback port.
	Port int
	// Settings are server options (postgresql.conf names, mariadbd option
	// names, firebird.conf names) applied at start.
	Settings map[string]string
}

// kind is one engine's way to run a private instance. Implementations live in
// one file per engine and register in init().
type kind interface {
	// start creates the instance in dir (initialising it when empty), starts
	// it on port and returns once it accepts connections.
	start(ctx context.Context, inst *Instance) error
	// stop ends the instance's processes; the directory stays.
	stop(inst *Instance) error
	// available says whether the packages are installed, and if not, which
	// Debian package to install.
	available() error
}

// tcpOnly is a kind whose instance has no Unix-domain socket; tcpOnly
// says so in words.
type tcpOnly interface {
	tcpOnly() string
}

// NoSocket says why engine's private instance cannot be reached through
// a Unix-domain socket, "" when it can (or the engine is unknown).
func NoSocket(engine string) string {
	if t, ok := kinds[engine].(tcpOnly); ok {
		return t.tcpOnly()
	}
	return ""
}

var kinds = map[string]kind{}

func register(name string, k kind) {
	if _, dup := kinds[name]; dup {
		panic("server: engine registered twice: " + name)
	}
	kinds[name] = k
}

// Engines lists the engines a private instance can be started for.
func Engines() []string {
	var out []string
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ErrUnknownEngine is returned for an engine with no private-server support.
var ErrUnknownEngine = errors.New("unknown server engine")

// ErrRunning is returned when a directory already holds a running instance.
var ErrRunning = errors.New("instance running")

const stateFile = "dbgauge-instance.json"

// Start starts engine's private instance in dir (created if missing) and
// records it in dir so that Stop can find it from another process.
func Start(ctx context.Context, engine, dir string, opt Options) (*Instance, error) {
	k, ok := kinds[engine]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownEngine, engine, strings.Join(Engines(), ", "))
	}
	if err := k.available(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if old, err := Load(abs); err == nil && old.alive() {
		return nil, fmt.Errorf("%w: a %s instance already runs in %s (pid %d, %s): stop it first", ErrRunning, old.Engine, abs, old.PID, old.URL)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", abs, err)
	}
	port := opt.Port
	if port == 0 {
		if port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	inst := &Instance{Engine: engine, Dir: abs, Port: port, Settings: opt.Settings}
	if err := k.start(ctx, inst); err != nil {
		return nil, fmt.Errorf("start %s in %s: %w", engine, abs, err)
	}
	if err := inst.save(); err != nil {
		k.stop(inst)
		return nil, err
	}
	return inst, nil
}

// Stop stops the instance recorded in dir.
func Stop(engine, dir string) error {
	inst, err := Load(dir)
	if err != nil {
		return err
	}
	if inst.Engine != engine {
		return fmt.Errorf("%s holds a %s instance, not %s", dir, inst.Engine, engine)
	}
	return inst.Stop()
}

// Load reads the instance recorded in dir.
func Load(dir string) (*Instance, error) {
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, fmt.Errorf("no dbgauge instance in %s: %w", dir, err)
	}
	var inst Instance
	if err := json.Unmarshal(b, &inst); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, stateFile), err)
	}
	return &inst, nil
}

// Stop ends the instance's processes.
func (i *Instance) Stop() error {
	k, ok := kinds[i.Engine]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownEngine, i.Engine)
	}
	if err := k.stop(i); err != nil {
		return fmt.Errorf("stop %s in %s: %w", i.Engine, i.Dir, err)
	}
	return os.Remove(filepath.Join(i.Dir, stateFile))
}

// Restart stops and starts the instance on the same port and directory: the
// engine's own cache is empty afterwards.
func (i *Instance) Restart(ctx context.Context) error { return i.RestartAfter(ctx, 0) }

// RestartAfter stops the instance, leaves it down for pause, and starts it
// again on the same port and directory: a restart as an operator's script
// does it, which clients under load must survive.
//
// Once stopped, the server is started again whatever happens to ctx: a
// Ctrl-C that cancels ctx in between must not leave the user's instance
// down, nor its file naming a dead process (the start is bounded by its
// own time-outs). ctx's error is returned after, so that the caller stops.
func (i *Instance) RestartAfter(ctx context.Context, pause time.Duration) error {
	k := kinds[i.Engine]
	if err := k.stop(i); err != nil {
		return err
	}
	select {
	case <-time.After(pause):
	case <-ctx.Done(): // cut the pause short, but start it all the same
	}
	if err := k.start(context.WithoutCancel(ctx), i); err != nil {
		// Not running: the file would name a dead process.
		os.Remove(filepath.Join(i.Dir, stateFile))
		return err
	}
	if err := i.save(); err != nil {
		return err
	}
	return ctx.Err()
}

// alive reports whether the recorded server process still runs: a killed
// server that nobody has reaped yet (a zombie) does not.
func (i *Instance) alive() bool {
	return i.PID > 0 && running(i.PID)
}

func (i *Instance) save() error {
	b, _ := json.MarshalIndent(i, "", "  ")
	return os.WriteFile(filepath.Join(i.Dir, stateFile), b, 0o644)
}

// waitTCP waits until something accepts connections on the loopback port.
func waitTCP(ctx context.Context, port int, limit time.Duration) error {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	return poll(ctx, limit, 50*time.Millisecond, func() (bool, error) {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return true, nil
		}
		return false, nil
	}, func() error { return fmt.Errorf("nothing listens on %s after %s", addr, limit) })
}

// poll calls try every interval until it says done, fails, ctx ends or
// limit passes (then it returns late()).
func poll(ctx context.Context, limit, every time.Duration, try func() (bool, error), late func() error) error {
	deadline := time.Now().Add(limit)
	for {
		done, err := try()
		if done || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return late()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}
