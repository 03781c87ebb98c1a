package htmlreport

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "speedup", Doc: (*Run).speedupDoc, Metrics: speedupMetrics})
}

// speedup is the run's results; nil when the run is not a speedup run.
func (r *Run) speedup() *results.SpeedupResults {
	res, _ := r.Results.(*results.SpeedupResults)
	return res
}

// speedupDoc is the page of a speedup run (seed 003 §5.2, §6.2): per query
// class the speedup at the largest p against the ideal (or why the engine
// has none), the memory sweep's hash batches and the best and worst page
// size first; then each diagram with its reading, and per part the rows
// of speedup.csv with how the part set its variable.
func (r *Run) speedupDoc(d *Doc) error {
	s := r.speedup()
	d.Title = fmt.Sprintf("Speedup, join memory and page size: %s", s.Engine)
	d.Summary = speedupSummary(s)
	cpus := 0
	if r.Manifest != nil {
		cpus = r.Manifest.System.CPUs
	}
	d.Warnings = append(d.Warnings, speedupWarnings(s, cpus)...)
	charts, err := r.charts()
	var speedRead, respRead, memRead, batchRead, pageRead string
	if p := s.Speedup; p != nil && p.Applicable {
		speedRead, respRead = speedupReading(p), responseReading(p)
	}
	if p := s.Memory; p != nil && p.Applicable {
		memRead, batchRead = memoryReading(p), batchesReading(p)
	}
	if p := s.PageSize; p != nil && p.Applicable {
		pageRead = pageSizeReading(p)
	}
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"speedup", "Speedup against parallelism", speedRead},
		{"response", "Response time against parallelism", respRead},
		{"memory", "Response time against join memory", memRead},
		{"memory_batches", "Hash batches against join memory", batchRead},
		{"pagesize", "Response time against page size", pageRead},
	})...)
	names, parts := ledTables(csvTable("", report.SpeedupCSVTable(s)))
	byVar := map[string]*results.SpeedupPart{}
	for _, p := range []*results.SpeedupPart{s.Speedup, s.Memory, s.PageSize} {
		if p != nil {
			byVar[p.Variable] = p
		}
	}
	for _, name := range names {
		p := byVar[name]
		if p == nil {
			continue
		}
		title := "Every point: " + partName(p)
		if !p.Applicable {
			d.Sections = append(d.Sections, Section{ID: "table-" + name, Title: partName(p),
				Reading: fmt.Sprintf("Not applicable on %s: %s.", s.Engine, p.Reason)})
			continue
		}
		t := parts[name]
		errorFirstLines(t)
		t.Title = []string{fmt.Sprintf("Wisconsin N=%d, %d repetitions per point, %s; times in ms (median, min, max), rsd = relative standard deviation; workers and hash batches from the warm-up's EXPLAIN ANALYZE (n/a: the engine does not say)",
			s.Size, s.Reps, destText(s.Destination))}
		t.Notes = partHow(p)
		d.Sections = append(d.Sections, Section{ID: "table-" + name, Title: title, Table: t})
	}
	return err
}

// partName names a part as the page's headings do.
func partName(p *results.SpeedupPart) string {
	switch p.Variable {
	case "parallelism":
		return "speedup against parallelism"
	case "memory":
		return "join memory sweep"
	case "page_size":
		return "page size"
	}
	return p.Variable
}

// partHow says how the part set its variable and what it held fixed.
func partHow(p *results.SpeedupPart) []string {
	var n []string
	if p.Knob != "" {
		n = append(n, "how: "+p.Knob)
	}
	if len(p.Fixed) > 0 {
		var kv []string
		for k, v := range p.Fixed {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		n = append(n, "session settings held for the part: "+strings.Join(kv, ", "))
	}
	return n
}

// destText says where each result went.
func destText(dest string) string {
	switch dest {
	case results.DestRelation:
		return "each result stored into a relation"
	case results.DestCount:
		return "each result counted in the engine"
	}
	return "results to the " + dest
}

// errorFirstLines keeps the first line of every cell of the table's error
// column: an engine's advice (and links) after it stay in results.json.
func errorFirstLines(t *report.Table) {
	col := -1
	for i, h := range t.Rows[0] {
		if h == "error" {
			col = i
		}
	}
	if col < 0 {
		return
	}
	for _, row := range t.Rows[1:] {
		if col < len(row) {
			row[col] = firstLine(row[col])
		}
	}
}
