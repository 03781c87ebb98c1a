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
}

var (
	mu       sync.Mutex
	adapters = map[string]*Adapter{} // by scheme
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

// Open parses a URL and opens one session with the adapter it names.
func Open(ctx context.Context, raw string) (Engine, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	a, err := Lookup(u)
	if err != nil {
		return nil, err
	}
	e, err := a.Open(ctx, u)
	if err != nil {
		return nil, err
	}
	return e, nil
}
