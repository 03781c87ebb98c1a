package htmlreport

import (
	"slices"
	"strings"
)

// manifestGroups are the label prefixes of ManifestRows whose rows differ
// from engine to engine (each engine has its own settings): the rows of a
// group stay together, sorted, where the group first appears.
var manifestGroups = []string{"setting ", "instrumentation of ", "flag --"}

// manifestRows are the runs' manifests as one table: a row every run
// shares (the machine, the command, the seed) once, a row that differs
// (driver, database, settings, start time) with each engine's value.
func (v *engineView) manifestRows() [][2]string {
	var labels []string
	values := map[string][]string{} // label -> value per engine ("" when absent)
	for j, e := range v.engines {
		if e.run.Manifest == nil {
			continue
		}
		for _, row := range ManifestRows(e.run.Manifest) {
			if _, seen := values[row[0]]; !seen {
				labels = append(labels, row[0])
				values[row[0]] = make([]string, len(v.engines))
			}
			values[row[0]][j] = row[1]
		}
	}
	var out [][2]string
	for _, l := range groupLabels(labels) {
		vals := values[l]
		if first := vals[0]; first != "" && !slices.ContainsFunc(vals, func(x string) bool { return x != first }) {
			out = append(out, [2]string{l, first})
			continue
		}
		var each []string
		for j, x := range vals {
			switch {
			case x == "":
			case x == v.engines[j].label:
				each = append(each, x) // the engine row: its value names it
			default:
				each = append(each, v.engines[j].label+": "+x)
			}
		}
		out = append(out, [2]string{l, strings.Join(each, "; ")})
	}
	return out
}

// groupLabels orders labels as first seen, except that the labels of a
// manifest group come together, sorted, where the group's first label was.
func groupLabels(labels []string) []string {
	group := func(l string) string {
		for _, g := range manifestGroups {
			if strings.HasPrefix(l, g) {
				return g
			}
		}
		return ""
	}
	var out []string
	done := map[string]bool{}
	for _, l := range labels {
		g := group(l)
		if g == "" {
			out = append(out, l)
			continue
		}
		if done[g] {
			continue
		}
		done[g] = true
		var members []string
		for _, m := range labels {
			if group(m) == g {
				members = append(members, m)
			}
		}
		slices.Sort(members)
		out = append(out, members...)
	}
	return out
}
