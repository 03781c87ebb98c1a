package htmlreport

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// Build is the report of the run directory dir, from its files alone.
func Build(dir string) ([]byte, error) {
	r, err := Load(dir)
	if err != nil {
		return nil, err
	}
	d, err := r.Doc()
	if err != nil {
		return nil, err
	}
	return Render(d)
}

// Doc is the run's page: the common parts (title, manifest, protocol
// paragraph, notes) around the experiment's own summary, warnings,
// diagrams and tables.
func (r *Run) Doc() (*Doc, error) {
	d := &Doc{Title: fmt.Sprintf("dbgauge %s", r.Experiment)}
	var err error
	if k := pageKindOf(r.Experiment); k.Doc != nil {
		err = k.Doc(r, d)
	}
	if err != nil {
		// A diagram that cannot be drawn is a warning: the tables and
		// numbers are still worth the page.
		d.Warnings = append(d.Warnings, "diagrams: "+err.Error())
	}
	if p := r.file("protocol.txt"); len(p) > 0 && d.Protocol == "" {
		d.Protocol = strings.TrimSpace(string(p))
	}
	if r.Manifest == nil {
		d.Warnings = append(d.Warnings, "manifest.json is missing: the engine, machine and command are unknown")
	} else {
		d.Subtitle = subtitle(r.Manifest)
		d.Manifest = ManifestRows(r.Manifest)
		d.Warnings = append(d.Warnings, r.Manifest.Notes...)
	}
	if r.Results != nil {
		rows, warnings := resumeNotes(r.Results.Head())
		d.Manifest = append(d.Manifest, rows...)
		d.Warnings = append(d.Warnings, warnings...)
	}
	return d, nil
}

// subtitle is the one line under the title: engine, version, machine, date.
func subtitle(m *results.Manifest) string {
	parts := []string{}
	if m.Engine.Engine != "" {
		parts = append(parts, strings.TrimSpace(m.Engine.Engine+" "+m.Engine.Version))
	}
	if m.System.CPUModel != "" {
		parts = append(parts, fmt.Sprintf("%s, %d cores, %s", m.System.CPUModel, m.System.CPUs, bytesLabel(m.System.MemoryBytes)))
	}
	if !m.Started.IsZero() {
		parts = append(parts, m.Started.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return strings.Join(parts, " · ")
}

// ManifestRows are the manifest as label/value rows: what was measured,
// how, on what.
func ManifestRows(m *results.Manifest) [][2]string {
	rows := [][2]string{
		{"experiment", m.Experiment},
		{"command", strings.Join(m.Command, " ")},
		{"engine", strings.TrimSpace(m.Engine.Engine + " " + m.Engine.Version)},
		{"driver", strings.TrimSpace(m.Engine.Driver + " " + m.Engine.DriverVersion)},
		{"database", m.DB},
		{"dbgauge", m.Dbgauge + " (" + m.Go + ")"},
		{"seed", fmt.Sprint(m.Seed)},
		{"started", m.Started.UTC().Format("2006-01-02 15:04:05 UTC")},
	}
	if m.Finished != nil {
		rows = append(rows, [2]string{"finished", m.Finished.UTC().Format("2006-01-02 15:04:05 UTC")})
	}
	s := m.System
	rows = append(rows,
		[2]string{"machine", fmt.Sprintf("%s, %d cores, %s memory, %s", s.CPUModel, s.CPUs, bytesLabel(s.MemoryBytes), s.Arch)},
		[2]string{"operating system", strings.TrimSpace(s.OS + ", kernel " + s.Kernel)},
		[2]string{"file system", fileSystemLabel(s.FileSystem, s.Mount)},
	)
	if s.Virtual != "" {
		rows = append(rows, [2]string{"virtualisation", s.Virtual})
	}
	if m.Engine.BufferPoolBytes > 0 {
		rows = append(rows, [2]string{"buffer pool", bytesLabel(m.Engine.BufferPoolBytes)})
	}
	rows = append(rows, sortedRows("setting ", m.Engine.Settings)...)
	for _, in := range m.Instrumentation {
		rows = append(rows, [2]string{"instrumentation of " + in.Session, settingsLine(in.Settings)})
	}
	cfg := map[string]string{}
	for k, v := range m.Config {
		cfg[k] = fmt.Sprint(v)
	}
	rows = append(rows, sortedRows("flag --", cfg)...)
	var out [][2]string
	for _, r := range rows {
		if strings.TrimSpace(r[1]) != "" {
			out = append(out, r)
		}
	}
	return out
}

func sortedRows(prefix string, m map[string]string) [][2]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows [][2]string
	for _, k := range keys {
		rows = append(rows, [2]string{prefix + k, m[k]})
	}
	return rows
}

// settingsLine is settings as one line, "name = value; ...", sorted.
func settingsLine(m map[string]string) string {
	var parts []string
	for _, r := range sortedRows("", m) {
		parts = append(parts, r[0]+" = "+r[1])
	}
	return strings.Join(parts, "; ")
}

func bytesLabel(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// csvTable is a CSV export's table value on the page: its rows (header
// first), without the text table's title and notes; nil without rows.
func csvTable(title string, t *report.Table) *report.Table {
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	out := &report.Table{Rows: t.Rows}
	if title != "" {
		out.Title = []string{title}
	}
	return out
}

// chartSections are the diagrams of charts (name.svg entries, in the
// order of names), each with its title and reading.
func chartSections(charts map[string][]byte, order []diagram) []Section {
	var out []Section
	for _, g := range order {
		svg := charts[g.name+".svg"]
		if len(svg) == 0 {
			continue
		}
		out = append(out, Section{ID: g.name, Title: g.title, Reading: g.reading, SVG: InlineSVG(svg)})
	}
	return out
}

// diagram names one chart of an experiment: its file stem, its title and
// the one line that says what it shows in this run.
type diagram struct{ name, title, reading string }

// fileSystemLabel is "ext4 at /srv", or says the run did not find its
// file system (runs before a relative run directory was resolved left
// both empty, and the page said "at").
func fileSystemLabel(fstype, mount string) string {
	switch {
	case fstype == "" && mount == "":
		return "not recorded"
	case mount == "":
		return fstype
	case fstype == "":
		return "mounted at " + mount
	}
	return fstype + " at " + mount
}
