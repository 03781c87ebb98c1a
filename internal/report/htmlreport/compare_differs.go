package htmlreport

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
)

// What differs between runs, from their manifests: the rows of the "what,
// how, on what" table whose values are not the same in every run. These
// differ in every pair of runs and say nothing about what was measured:
var cmpAlwaysDiffer = []string{"started", "finished", "flag --out", "flag --html", "flag --config"}

// cmpUnknown stands for a row a run's manifest does not have.
const cmpUnknown = "—"

// cmpDifferRows are the manifest rows that differ between the runs (label,
// then one value per run; cmpUnknown where a run has no such row), with the
// command lines always first.
func cmpDifferRows(runs []*Run) [][]string {
	var order []string
	values := make([]map[string]string, len(runs))
	for i, r := range runs {
		values[i] = map[string]string{}
		if r.Manifest == nil {
			continue
		}
		for _, row := range ManifestRows(r.Manifest) {
			if _, ok := values[i][row[0]]; !ok && !slices.Contains(order, row[0]) {
				order = append(order, row[0])
			}
			values[i][row[0]] = row[1]
		}
	}
	cell := func(i int, label string) string {
		if v, ok := values[i][label]; ok {
			return v
		}
		return cmpUnknown
	}
	var out [][]string
	// Settings only some engines have (two engines rarely share a
	// setting's name) go into one row, so that the table stays about
	// what was changed; one that differs between the runs that have it
	// keeps its own row.
	own := make([][]string, len(runs))
	for _, label := range order {
		if slices.Contains(cmpAlwaysDiffer, label) {
			continue
		}
		row := []string{label}
		same, partial := true, false
		known := map[string]bool{} // the values of the runs that have the row
		for i, r := range runs {
			row = append(row, cell(i, label))
			same = same && row[i+1] == row[1]
			partial = partial || (r.Manifest != nil && row[i+1] == cmpUnknown)
			if row[i+1] != cmpUnknown {
				known[row[i+1]] = true
			}
		}
		switch {
		case label == "command":
			out = append([][]string{row}, out...)
		case partial && len(known) == 1 && strings.HasPrefix(label, "setting "):
			for i, v := range row[1:] {
				if v != cmpUnknown {
					own[i] = append(own[i], strings.TrimPrefix(label, "setting ")+"="+v)
				}
			}
		case !same:
			out = append(out, row)
		}
	}
	if slices.ContainsFunc(own, func(s []string) bool { return len(s) > 0 }) {
		row := []string{"settings of this engine only"}
		for _, s := range own {
			if len(s) == 0 {
				row = append(row, cmpUnknown)
			} else {
				row = append(row, strings.Join(s, ", "))
			}
		}
		out = append(out, row)
	}
	return out
}

// cmpRunLabels say what each run is, as shortly as tells them apart: the
// engine when the runs are of different engines; else the one or two
// settings, or flags, that differ ("synchronous_commit=off"); else the
// engine and version; else the run directory's name; else "run 1", ...
func cmpRunLabels(runs []*Run, differs [][]string) []string {
	n := len(runs)
	var candidates [][]string
	engines := make([]string, n)
	for i, r := range runs {
		if r.Manifest != nil {
			engines[i] = r.Manifest.Engine.Engine
		}
	}
	candidates = append(candidates, engines)
	for _, prefix := range []string{"setting ", "flag --"} {
		var rows [][]string
		for _, row := range differs {
			if strings.HasPrefix(row[0], prefix) && !slices.ContainsFunc(row[1:], cmpNotALabel) {
				rows = append(rows, row)
			}
		}
		if len(rows) == 0 || len(rows) > 2 {
			continue
		}
		labels := make([]string, n)
		for i := range runs {
			var parts []string
			for _, row := range rows {
				parts = append(parts, strings.TrimPrefix(row[0], prefix)+"="+row[i+1])
			}
			labels[i] = strings.Join(parts, ", ")
		}
		candidates = append(candidates, labels)
	}
	for _, row := range differs {
		if row[0] == "engine" {
			candidates = append(candidates, row[1:])
		}
	}
	dirs := make([]string, n)
	for i, r := range runs {
		dirs[i] = filepath.Base(r.Dir)
	}
	candidates = append(candidates, dirs)
	for _, labels := range candidates {
		if cmpDistinct(labels) {
			out := make([]string, n)
			for i, l := range labels {
				out[i] = cmpShorten(l, 48)
			}
			if cmpDistinct(out) {
				return out
			}
		}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "run " + cmpLetter(i)
	}
	return out
}

// cmpNotALabel: a value that cannot name a run: a path (the database
// file, a temporary directory), a URL, or a long text such as a version
// banner; these differ between runs but say nothing of what was changed.
func cmpNotALabel(v string) bool {
	return strings.ContainsAny(v, "/\\") || strings.Contains(v, "://") || len(v) > 32
}

// cmpDistinct says whether the labels are non-empty and all different.
func cmpDistinct(labels []string) bool {
	seen := map[string]bool{}
	for _, l := range labels {
		if l == "" || l == cmpUnknown || seen[l] {
			return false
		}
		seen[l] = true
	}
	return true
}

// cmpShorten cuts s to n characters with an ellipsis.
func cmpShorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// differsSection is the "what differs" table.
func (c *comparison) differsSection() Section {
	t := &report.Table{Rows: [][]string{append([]string{""}, c.names()...)}}
	t.Rows = append(t.Rows, c.differs...)
	reading := "The rows of the runs' manifests that differ (engine, version, settings, flags, machine), and the command lines."
	if len(c.differs) <= 1 {
		reading = "The runs' manifests differ in nothing but the command line (and the time they ran)."
	}
	for _, r := range c.runs {
		if r.Manifest == nil {
			t.Notes = append(t.Notes, filepath.Base(r.Dir)+" has no manifest.json: its engine, settings and machine are unknown ("+cmpUnknown+").")
		}
	}
	return Section{ID: "differs", Title: "What differs", Reading: reading, Table: t}
}

// names are the runs' names, the baseline marked.
func (c *comparison) names() []string {
	out := make([]string, len(c.runs))
	for i := range c.runs {
		out[i] = c.name(i)
		if i == 0 {
			out[i] += " (baseline)"
		}
	}
	return out
}
