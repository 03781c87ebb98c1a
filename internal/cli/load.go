package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// loadFlags are load's flags, typed: Set has validated each.
type loadFlags struct {
	db, out string
	sizes   *flagtype.List[int64]
	rels    *flagtype.List[string]
}

func (f *loadFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "engine URL")
	fl.Var(f.sizes, "size", "base relation size N (a list loads each)")
	fl.Var(f.rels, "relations", "relations to load")
	fl.StringVar(&f.out, "out", "", "run directory (default runs/<UTC time>-load)")
	cobra.MarkFlagRequired(fl, "db")
	fl.SetAnnotation("db", exampleAnnotation, []string{"URL"})
}

func (f *loadFlags) plan() (experiment.LoadPlan, error) {
	p := experiment.LoadPlan{Sizes: f.sizes.Values}
	for _, r := range f.rels.Values {
		p.Relations = append(p.Relations, relation(r))
	}
	return p, nil
}

func (f *loadFlags) target() (db, out string) { return f.db, f.out }

func init() {
	experimentCmd[experiment.LoadPlan, *results.LoadResults]{
		name:  "load",
		use:   "load",
		short: "Load Wisconsin relations into an engine through its fastest bulk path, timed",
		flags: func() experimentFlags[experiment.LoadPlan] {
			return &loadFlags{
				sizes: flagtype.Counts("10000").Check(w.CheckSize),
				rels:  flagtype.Choices("tenktup1,tenktup2,onektup,bprime", relationNames...),
			}
		},
		run:     experiment.RunLoad,
		summary: loadSummary,
	}.register()
}

// loadSummary is one line per load (table, rows, seconds, rows per
// second) and where the run directory is.
func loadSummary(r *results.LoadResults, dir string) []byte {
	var b strings.Builder
	for _, l := range r.Loads {
		fmt.Fprintf(&b, "%s\t%d rows\t%.3f s\t%.0f rows/s\n", l.Table, l.Rows, l.Seconds, l.RowsPerS)
	}
	b.WriteString(runDirLine(dir, "results.json, manifest.json, journal.jsonl"))
	return []byte(b.String())
}
