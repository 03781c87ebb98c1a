package dbms

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Adapter opens sessions to one kind of engine.
type Adapter struct {
	// Name is the canonical engine name used in results: postgres, mysql, ...
	Name string
	// Schemes are the URL schemes that select this adapter.
	Schemes []string
	// Open connects one session. It must fail with an error classified as
	// BadInput for user mistakes (bad URL, unreachable server, wrong password).
	Open func(ctx context.Context, u *URL) (Engine, error)
	// Processes are the names (comm, at most 15 bytes) of the engine's
	// server processes and their wrappers, so that packages without a
	// session tell them apart in process snapshots (ServerProcess).
	Processes []ProcessName
	// FileSuffixes end the names of the engine's database files (and their
	// journals), so that a run directory's archive leaves them out
	// (DatabaseFileSuffixes).
	FileSuffixes []string
	// Embedded, set by the one engine experiments run on when --db is not
	// given, is the URL of its database file at path; shared asks for
	// many sessions writing at once.
	Embedded func(path string, shared bool) string
	// FindPassword, when set, finds the password of a server URL that
	// gives none where the engine's own client tools look (an option
	// file, an environment variable), and names where it found it; ""
	// when it found none. Nil where the driver looks by itself (pgx reads
	// $PGPASSWORD and ~/.pgpass) or no password applies. password.go.
	FindPassword PasswordFinder
	// NoProcedures: the engine has no server-side procedures in any
	// version (no ProcedureLanguage), so that a form that needs them is
	// refused before a session opens (an embedded engine's Open creates
	// its file).
	NoProcedures bool
	// Params are the URL query parameters the adapter passes on to its
	// driver: a URL with any other is refused before a session opens (a
	// driver that ignores what it does not know would run without the
	// setting the user asked for, and an embedded engine's Open creates
	// its file). Nil where the engine itself refuses an unknown one (a
	// server, DuckDB's settings).
	Params []string
}

// ProcessName is one process name an engine's server runs under.
type ProcessName struct {
	Comm string
	// Product is the engine as a report names it (MariaDB and MySQL are
	// one adapter, two products).
	Product string
	// Helper: a wrapper or guardian (mysqld_safe, fbguard), not a server.
	Helper bool
}

var (
	mu       sync.Mutex
	adapters = map[string]*Adapter{} // by scheme
	comms    = map[string]ProcessName{}
	suffixes []string
	embedded *Adapter // the default engine (Adapter.Embedded)
)

// Register makes an adapter available by its schemes. Adapters call it from
// init(); a scheme registered twice is a programming error and panics.
func Register(a *Adapter) {
	mu.Lock()
	defer mu.Unlock()
	for _, s := range a.Schemes {
		if _, dup := adapters[s]; dup {
			panic("dbms: scheme registered twice: " + s)
		}
		adapters[s] = a
	}
	for _, p := range a.Processes {
		if _, dup := comms[p.Comm]; dup {
			panic("dbms: process name registered twice: " + p.Comm)
		}
		comms[p.Comm] = p
	}
	suffixes = append(suffixes, a.FileSuffixes...)
	if a.Embedded != nil {
		if embedded != nil {
			panic("dbms: two default embedded engines: " + embedded.Name + " and " + a.Name)
		}
		embedded = a
	}
}

// ServerProcess says whether comm is the name of a registered engine's
// server process (or its wrapper), and which. Timing and the stress sweep
// call it to find an engine's processes among a machine's.
func ServerProcess(comm string) (ProcessName, bool) {
	mu.Lock()
	defer mu.Unlock()
	p, ok := comms[comm]
	return p, ok
}

// DatabaseFileSuffixes lists the endings of every registered engine's
// database files, for the archive of a run directory.
func DatabaseFileSuffixes() []string {
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), suffixes...)
}

// Schemes lists the registered URL schemes, sorted.
func Schemes() []string {
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for s := range adapters {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Lookup finds the adapter for a parsed URL.
func Lookup(u *URL) (*Adapter, error) {
	mu.Lock()
	a := adapters[u.Scheme]
	mu.Unlock()
	if a == nil {
		return nil, &Error{Class: BadInput, Err: fmt.Errorf("unknown engine %q in --db (known: %s)", u.Scheme, strings.Join(Schemes(), ", "))}
	}
	return a, nil
}

// Open parses a URL and opens one session with the adapter it names (on
// the first of its hosts that gives one with the session attributes it
// asks for: OpenNode).
func Open(ctx context.Context, raw string) (Engine, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	e, _, err := OpenNode(ctx, u)
	return e, err
}

// SameEngine says whether two engine URLs name the same adapter through
// different schemes (mariadb:// and mysql://); false when either is not a
// URL of a registered engine.
func SameEngine(a, b string) bool {
	ua, err := ParseURL(a)
	if err != nil {
		return false
	}
	ub, err := ParseURL(b)
	if err != nil {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	return adapters[ua.Scheme] != nil && adapters[ua.Scheme] == adapters[ub.Scheme]
}

// LacksProcedures says whether the engine of URL raw ("": the default
// embedded engine) has no server-side procedures in any version, and its
// name; false for a URL of no registered engine (Open refuses it).
func LacksProcedures(raw string) (engine string, lacks bool) {
	if raw == "" {
		a := defaultAdapter()
		return a.Name, a.NoProcedures
	}
	u, err := ParseURL(raw)
	if err != nil {
		return "", false
	}
	a, err := Lookup(u)
	if err != nil {
		return "", false
	}
	return a.Name, a.NoProcedures
}
