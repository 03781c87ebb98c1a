package htmlreport

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The comparison page (dbgauge compare): runs of one experiment side by
// side, the first the baseline. Per metric: each run's median, the ratio
// to the baseline with its bootstrap interval from the repetitions, and a
// verdict; what differs between the runs (engine, version, settings,
// flags, machine); overlaid diagrams. Built from the run directories
// alone, like every page.

// Bootstrap of the comparisons: the same seed for every metric, so the
// same runs always give the same page.
const (
	compareLevel     = 0.95
	compareResamples = stats.DefaultResamples
	compareSeed      = stats.DefaultBootstrapSeed
)

// Compare is the comparison page of the run directories dirs: the first is
// the baseline, every other is compared with it. Runs of different
// experiments, or fewer than two directories, are an error (nothing is
// compared); so is a directory that is not a run.
func Compare(dirs []string) (*Doc, error) {
	if len(dirs) < 2 {
		return nil, fmt.Errorf("compare: give at least two run directories (the first is the baseline)")
	}
	runs := make([]*Run, len(dirs))
	for i, dir := range dirs {
		r, err := Load(dir)
		if err != nil {
			return nil, err
		}
		runs[i] = r
	}
	for _, r := range runs[1:] {
		if r.Experiment != runs[0].Experiment {
			return nil, fmt.Errorf("compare: %s is a %s run but the baseline %s is a %s run: only runs of the same experiment can be compared",
				r.Dir, r.Experiment, runs[0].Dir, runs[0].Experiment)
		}
	}
	return newComparison(runs).doc(), nil
}

// comparison is the runs, their names, and every metric compared.
type comparison struct {
	runs []*Run
	// letters are A (the baseline), B, C ...; labels say what each run is
	// (its engine, or the setting that differs, or its directory).
	letters, labels []string
	differs         [][]string // what differs: label, then one value per run
	rows            []compareRow
}

// compareRow is one metric in every run and each other run's comparison
// with the baseline.
type compareRow struct {
	Metric                       // as the first run that has it names it
	per    []*Metric             // per run; nil when the run did not measure it
	vs     []stats.RunComparison // vs[i-1] compares run i with the baseline
}

func newComparison(runs []*Run) *comparison {
	c := &comparison{runs: runs}
	for i := range runs {
		c.letters = append(c.letters, cmpLetter(i))
	}
	c.differs = cmpDifferRows(runs)
	c.labels = cmpRunLabels(runs, c.differs)
	c.rows = compareRows(cmpMetricsOf(runs))
	return c
}

// cmpLetter is A, B, ..., Z, then R27, R28 ...
func cmpLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// name is how the page names run i: "A: sqlite".
func (c *comparison) name(i int) string {
	return c.letters[i] + ": " + c.labels[i]
}

// compareRows lines the runs' metrics up by key, in the baseline's order
// and then any metric only later runs have, and compares each other run
// with the baseline.
func compareRows(perRun [][]Metric) []compareRow {
	index := map[string]int{}
	var rows []compareRow
	for ri, ms := range perRun {
		for mi := range ms {
			m := &ms[mi]
			k, ok := index[m.Key]
			if !ok {
				k = len(rows)
				index[m.Key] = k
				rows = append(rows, compareRow{Metric: *m, per: make([]*Metric, len(perRun))})
			}
			if rows[k].per[ri] == nil {
				rows[k].per[ri] = m
			}
		}
	}
	for k := range rows {
		row := &rows[k]
		for ri := 1; ri < len(perRun); ri++ {
			row.vs = append(row.vs, compareMetric(row.per[0], row.per[ri], row.Better))
		}
	}
	// Each run against the baseline is one family of tests.
	for ri := 1; ri < len(perRun); ri++ {
		family := make([]*stats.RunComparison, len(rows))
		for k := range rows {
			family[k] = &rows[k].vs[ri-1]
		}
		stats.AdjustRunComparisons(family)
	}
	return rows
}

// compareMetric compares one run's metric with the baseline's; a metric
// missing or without a value on either side is not comparable, and says
// why.
func compareMetric(base, other *Metric, better stats.Better) stats.RunComparison {
	var bs, ob []float64
	if base != nil {
		bs = base.Samples
	}
	if other != nil {
		ob = other.Samples
	}
	v := stats.CompareRuns(bs, ob, better, compareLevel, compareResamples, compareSeed)
	switch {
	case base == nil:
		v.Reason = "not in the baseline"
	case other == nil:
		v.Reason = "not in this run"
	case len(bs) == 0 && base.Missing != "":
		v.Reason = base.Missing + " in the baseline"
	case len(ob) == 0 && other.Missing != "":
		v.Reason = other.Missing + " in this run"
	}
	return v
}

// doc is the page: summary, warnings, what differs, the metrics, the
// diagrams, how to read the verdicts; the runs compared as its manifest.
func (c *comparison) doc() *Doc {
	d := &Doc{Title: fmt.Sprintf("Comparison: %d %s runs", len(c.runs), results.Title(c.runs[0].Experiment))}
	d.Subtitle = strings.Join(c.names(), " · ")
	d.Summary = c.summary()
	d.Warnings = c.warnings()
	d.Sections = append(d.Sections, c.differsSection(), c.metricsSection())
	if c.severalEngines() {
		// Wisconsin runs of several engines: the ClickBench-style view,
		// each query relative to the fastest engine, selectable in place.
		if v, err := newEngineView(c.runs); err == nil {
			if secs, err := v.sections(); err == nil {
				d.Sections = append(d.Sections, secs...)
				d.Script = enginesScript
			}
		}
	}
	sections, err := c.diagrams()
	d.Sections = append(d.Sections, sections...)
	if err != nil {
		d.Warnings = append(d.Warnings, "diagrams: "+err.Error())
	}
	d.Sections = append(d.Sections, c.methodSection())
	for i, r := range c.runs {
		v := filepath.Base(r.Dir)
		if r.Manifest != nil {
			v += " — " + subtitle(r.Manifest)
		}
		d.Manifest = append(d.Manifest, [2]string{c.name(i), v})
	}
	return d
}

// severalEngines tells whether the runs are Wisconsin runs of more than
// one engine (or engine version).
func (c *comparison) severalEngines() bool {
	seen := map[string]bool{}
	for _, r := range c.runs {
		if r.wisconsin() == nil {
			return false
		}
		seen[r.wisconsin().Engine+" "+r.wisconsin().EngineVersion] = true
	}
	return len(seen) > 1
}
