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

// Instance is one private server, running or stopped. Its record (the
// instance file in Dir, mode 0600: it holds the password) outlives a stop,
// so that the next start of Dir keeps its port and its password.
type Instance struct {
	Engine string `json:"engine"`
	Dir    string `json:"dir"`
	Port   int    `json:"port"`
	// User and Password are the engine's administrator login (postgres,
	// root, SYSDBA) and the password generated when the instance was
	// created: no login without it, by socket or TCP.
	User     string `json:"user,omitempty"`
	Password string `json:"password,omitempty"`
	// URL is what to pass to dbgauge --db: TCP on loopback, with the
	// login and password.
	URL string `json:"url"`
	// SocketURL names the same database through the instance's Unix-domain
	// socket (in a directory only the server's OS user may enter), in the
	// form the engine's own clients take:
	// postgres://U:PW@/DB?host=SOCKDIR&port=P (libpq) or
	// mysql://root:PW@unix(SOCKET)/DB. Empty when the instance has no socket
	// (Firebird; a directory path too long for a socket address).
	SocketURL string `json:"socket_url,omitempty"`
	// PID is the server's process; 0 once stopped.
	PID int `json:"pid"`
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
	// initialised says whether dir holds the instance's data (a start
	// there does not create it).
	initialised(dir string) bool
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

// ErrPortTaken is returned when the port a stopped instance kept is in
// use by another program: the user moves the instance with --port.
var ErrPortTaken = errors.New("the instance's port is taken")

// ErrLegacy is returned for a directory holding an instance made before
// private servers had passwords.
var ErrLegacy = errors.New("instance without a password")

// ErrStopped is returned by Load for an instance that does not run.
var ErrStopped = errors.New("instance stopped")

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
	old, err := LoadRecord(abs)
	switch {
	case err == nil && old.alive():
		return nil, fmt.Errorf("%w: a %s instance already runs in %s (pid %d, port %d): stop it first", ErrRunning, old.Engine, abs, old.PID, old.Port)
	case err == nil && kinds[old.Engine] != k:
		return nil, fmt.Errorf("%s holds a %s instance, not %s: give another --dir", abs, old.Engine, engine)
	case err != nil && k.initialised(abs):
		// Data with no record: made before instances had passwords, it
		// lets any local user in, and its password cannot be known.
		return nil, fmt.Errorf("%w: %s holds a %s instance made by an older dbgauge, open to every local user and without a password: take out what you need, then remove the directory (or give another --dir) and start a new instance", ErrLegacy, abs, engine)
	case err != nil:
		old = nil // a new instance
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", abs, err)
	}
	inst := &Instance{Engine: engine, Dir: abs, Port: opt.Port, Settings: opt.Settings}
	if old != nil {
		// The same instance again: its login, and its port unless the
		// caller moves it, so that URLs given out before stay good.
		inst.User, inst.Password = old.User, old.Password
		if inst.Port == 0 && old.Port != 0 {
			inst.Port = old.Port
			if !portFree(inst.Port) {
				return nil, fmt.Errorf("%w: port %d, which the %s instance in %s had, is in use by another program: free it, or give --port to move the instance", ErrPortTaken, inst.Port, engine, abs)
			}
		}
	}
	if inst.Port == 0 {
		if inst.Port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	if inst.Password == "" {
		if inst.Password, err = newPassword(); err != nil {
			return nil, err
		}
	}
	// Recorded before the engine keeps the password in its data: a
	// start that fails half way leaves a record the next start reads.
	if err := inst.saveStopped(); err != nil {
		return nil, err
	}
	if err := k.start(ctx, inst); err != nil {
		// Its port is not the instance's until it has run there (it
		// may be the reason the start failed).
		if old == nil || old.Port != inst.Port {
			inst.Port = 0
		}
		inst.saveStopped()
		return nil, fmt.Errorf("start %s in %s: %w", engine, abs, err)
	}
	if err := inst.save(); err != nil {
		k.stop(inst)
		return nil, err
	}
	return inst, nil
}

// Stop stops the instance recorded in dir (a stopped one stays stopped).
func Stop(engine, dir string) error {
	inst, err := LoadRecord(dir)
	if err != nil {
		return err
	}
	if inst.Engine != engine {
		return fmt.Errorf("%s holds a %s instance, not %s", dir, inst.Engine, engine)
	}
	return inst.Stop()
}

// Load reads the running instance recorded in dir; a stopped one is an
// ErrStopped.
func Load(dir string) (*Instance, error) {
	inst, err := LoadRecord(dir)
	if err != nil {
		return nil, err
	}
	if !inst.alive() {
		return nil, fmt.Errorf("%w: the %s instance in %s does not run: start it with dbgauge server start %s --dir %s", ErrStopped, inst.Engine, dir, inst.Engine, dir)
	}
	return inst, nil
}

// LoadRecord reads the instance recorded in dir, running or not (server
// stop checks the engine of a stopped one too).
func LoadRecord(dir string) (*Instance, error) {
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

// Stop ends the instance's processes. Its record stays, marked stopped:
// the next Start of the directory keeps its port and password.
func (i *Instance) Stop() error {
	k, ok := kinds[i.Engine]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownEngine, i.Engine)
	}
	if err := k.stop(i); err != nil {
		return fmt.Errorf("stop %s in %s: %w", i.Engine, i.Dir, err)
	}
	return i.saveStopped()
}

// saveStopped records the instance as not running.
func (i *Instance) saveStopped() error {
	i.PID = 0
	return i.save()
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
		// Not running: the file must not name a dead process.
		i.saveStopped()
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
	return writePrivate(filepath.Join(i.Dir, stateFile), b)
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
