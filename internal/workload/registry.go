package workload

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

var registry = struct {
	sync.RWMutex
	byName map[string]Meta
	order  []string // registration order
	def    string   // the one with Meta.Default
}{byName: map[string]Meta{}}

// Register makes a workload known by its name. Workloads call it from
// their package's init; a duplicate or incomplete registration is a
// programming error and panics at start-up.
func Register(m Meta) {
	if m.Name == "" || m.Description == "" || m.New == nil {
		panic(fmt.Sprintf("workload.Register: %q lacks a name, a description or New", m.Name))
	}
	if strings.ToLower(m.Name) != m.Name || strings.ContainsAny(m.Name, " ,") {
		panic(fmt.Sprintf("workload.Register: name %q: lower case, no spaces or commas", m.Name))
	}
	if m.Title == "" {
		m.Title = m.Name
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[m.Name]; dup {
		panic(fmt.Sprintf("workload.Register: %q registered twice", m.Name))
	}
	if m.Default {
		if registry.def != "" {
			panic(fmt.Sprintf("workload.Register: two defaults, %q and %q", registry.def, m.Name))
		}
		registry.def = m.Name
	}
	registry.byName[m.Name] = m
	registry.order = append(registry.order, m.Name)
}

// Default is the name of the workload a sweep runs when none is named
// ("" when no registered workload is the default).
func Default() string {
	registry.RLock()
	defer registry.RUnlock()
	return registry.def
}

// Lookup returns the registered workload of name; the error lists the
// known names.
func Lookup(name string) (Meta, error) {
	registry.RLock()
	m, ok := registry.byName[name]
	registry.RUnlock()
	if !ok {
		return Meta{}, fmt.Errorf("unknown workload %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return m, nil
}

// New makes the registered workload of name for a run.
func New(name string) (Workload, error) {
	m, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return m.New(), nil
}

// NewConfigured makes the registered workload of name for a run and
// hands it its options (Configurable); options for a workload that takes
// none are refused.
func NewConfigured(name string, options json.RawMessage) (Workload, error) {
	w, err := New(name)
	if err != nil || len(options) == 0 {
		return w, err
	}
	c, ok := w.(Configurable)
	if !ok {
		return nil, fmt.Errorf("the %s workload takes no options", name)
	}
	if err := c.Configure(options); err != nil {
		return nil, fmt.Errorf("the %s workload: %w", name, err)
	}
	return w, nil
}

// Names are the registered workloads' names: the default first, then the
// others in the order they registered (packages initialise in import
// path order, each registers its own in its order).
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	return names()
}

func names() []string {
	var out []string
	if registry.def != "" {
		out = append(out, registry.def)
	}
	for _, n := range registry.order {
		if n != registry.def {
			out = append(out, n)
		}
	}
	return out
}

// Registered are the registrations, in the order of Names.
func Registered() []Meta {
	registry.RLock()
	defer registry.RUnlock()
	var out []Meta
	for _, n := range names() {
		out = append(out, registry.byName[n])
	}
	return out
}

// Tagging are the registered workloads whose writes carry tags (a
// Tagger that writes), in the order of Names: the ones --check-acks and
// the node faults can check.
func Tagging() []string {
	var out []string
	for _, m := range Registered() {
		w := m.New()
		if _, ok := w.(Tagger); ok && w.Writes() {
			out = append(out, m.Name)
		}
	}
	return out
}

// Title is the registered workload name's title for a reader ("" when
// none is registered under it).
func Title(name string) string {
	m, err := Lookup(name)
	if err != nil {
		return ""
	}
	return m.Title
}
