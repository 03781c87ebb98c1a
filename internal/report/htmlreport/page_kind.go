package htmlreport

import (
	"fmt"
	"sync"
)

// PageKind is what the run's page and the comparison page know of one
// experiment. Each experiment registers its own from its files, so no
// list of experiments is written here.
type PageKind struct {
	Name string
	// Doc fills the run's page with the experiment's summary, warnings,
	// diagrams and tables; the common parts (title, manifest, protocol,
	// notes) are Build's. An error is a diagram that could not be drawn:
	// it becomes a warning and the rest of the page stays.
	Doc func(r *Run, d *Doc) error
	// Metrics are one run's comparable figures. RunsMetrics, when set,
	// is used instead, for experiments whose metrics must be lined up
	// across the runs compared (the same sizes in every run).
	Metrics     func(r *Run) []Metric
	RunsMetrics func(runs []*Run) [][]Metric
	// Diagrams adds the comparison's own overlaid diagrams (optional);
	// the line charts and ratios every comparison has are drawn anyway.
	Diagrams func(c *comparison, add addDiagram)
	// Mismatch warns when the runs compared measured different work
	// (optional).
	Mismatch func(c *comparison) []string
}

// addDiagram adds the SVG named name+".svg" of charts to a page, or
// records err.
type addDiagram func(charts map[string][]byte, err error, name, title, reading string)

var pageKinds = struct {
	sync.RWMutex
	m map[string]PageKind
}{m: map[string]PageKind{}}

// RegisterPage makes an experiment's pages known. A duplicate, or one
// without a Doc, panics: both are programming errors found at start-up.
func RegisterPage(k PageKind) {
	if k.Name == "" || k.Doc == nil {
		panic(fmt.Sprintf("htmlreport.RegisterPage: %q lacks a name or a Doc", k.Name))
	}
	pageKinds.Lock()
	defer pageKinds.Unlock()
	if _, dup := pageKinds.m[k.Name]; dup {
		panic(fmt.Sprintf("htmlreport.RegisterPage: %q registered twice", k.Name))
	}
	pageKinds.m[k.Name] = k
}

// pageKindOf is the registered page kind of an experiment; the zero kind
// (no sections of its own) for one that has none.
func pageKindOf(name string) PageKind {
	pageKinds.RLock()
	defer pageKinds.RUnlock()
	return pageKinds.m[name]
}
