package results

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
)

// Header is what every experiment's results.json says about itself, first:
// which experiment, on which engine, whether it finished and what went
// wrong. Every results type embeds it, so that the catalog, the exports,
// the report and compare read it the same way whatever the experiment.
type Header struct {
	Experiment string `json:"experiment"`
	// Engine and EngineVersion are empty for experiments that run no one
	// engine (an A/B test names each variant's; storage runs none).
	Engine        string   `json:"engine,omitempty"`
	EngineVersion string   `json:"engine_version,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
	Complete      bool     `json:"complete"`
	Error         string   `json:"error,omitempty"`
	// Resumed are the times `dbgauge resume` continued the run after it
	// stopped; Pauses the waits of --pause-on-error (resume.go).
	Resumed []time.Time `json:"resumed,omitempty"`
	Pauses  []Pause     `json:"pauses,omitempty"`
}

// Warn adds a warning to the header (a diagram that could not be drawn).
func (h *Header) Warn(w string) { h.Warnings = append(h.Warnings, w) }

// Head returns the header. Results types that keep their warnings under
// another key (storage's notes) override it.
func (h *Header) Head() Header { return *h }

// Results is an experiment's results.json decoded.
type Results interface {
	Head() Header
}

// EngineLabeler is implemented by results that name their engine
// themselves rather than in the header (an A/B test of two variants).
type EngineLabeler interface {
	EngineLabel() (name, version string)
}

// Kind is an experiment as stored results know it: how to decode its
// results.json and what the catalog and the benchmark-format export take
// from it. Each experiment registers its kind from its own file; nothing
// else lists the experiments.
type Kind struct {
	// Name is the experiment's name, as in results.json's "experiment" and
	// the command line.
	Name string
	// Title names the experiment for a reader ("DSBENCH stress sweep").
	Title string
	// New returns an empty value of the experiment's results type, for
	// results.json to be decoded into.
	New func() Results
	// Headline is the one figure the catalog shows for a run.
	Headline func(Results) Headline
	// Bench writes the run's measurements in the Go benchmark format; dir
	// is the run directory, for measurements stored beside results.json.
	Bench func(w *BenchWriter, r Results, dir string)
	// Units names the experiment's unit of work ("scale"), whose
	// completion it journals as a UnitDone entry: a run of a kind with
	// Units that stopped can be resumed from its last complete unit.
	// "" means the experiment cannot be resumed.
	Units string
}

var kinds = struct {
	sync.RWMutex
	m      map[string]Kind
	byType map[reflect.Type]string
}{m: map[string]Kind{}, byType: map[reflect.Type]string{}}

// Register makes an experiment kind known. It panics on a duplicate or
// incomplete kind: both are programming errors found at start-up.
func Register(k Kind) {
	if k.Name == "" || k.New == nil || k.Headline == nil || k.Bench == nil {
		panic(fmt.Sprintf("results.Register: kind %q lacks a name, New, Headline or Bench", k.Name))
	}
	kinds.Lock()
	defer kinds.Unlock()
	if _, dup := kinds.m[k.Name]; dup {
		panic(fmt.Sprintf("results.Register: experiment %q registered twice", k.Name))
	}
	if k.Title == "" {
		k.Title = k.Name
	}
	kinds.m[k.Name] = k
	kinds.byType[reflect.TypeOf(k.New())] = k.Name
}

// KindFor returns the kind whose results type r is: a value decoded or
// built in memory knows its kind even before its header is filled.
func KindFor(r Results) (Kind, bool) {
	kinds.RLock()
	defer kinds.RUnlock()
	name, ok := kinds.byType[reflect.TypeOf(r)]
	return kinds.m[name], ok
}

// KindOf returns the registered kind of an experiment; the error lists
// the known ones.
func KindOf(name string) (Kind, error) {
	kinds.RLock()
	defer kinds.RUnlock()
	if k, ok := kinds.m[name]; ok {
		return k, nil
	}
	return Kind{}, fmt.Errorf("unknown experiment %q (known: %s)", name, strings.Join(kindNames(), ", "))
}

// KindNames are the registered experiments' names, sorted.
func KindNames() []string {
	kinds.RLock()
	defer kinds.RUnlock()
	return kindNames()
}

func kindNames() []string {
	names := make([]string, 0, len(kinds.m))
	for n := range kinds.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Title names an experiment for a reader; an unknown one by its name.
func Title(name string) string {
	if k, err := KindOf(name); err == nil {
		return k.Title
	}
	return name
}
