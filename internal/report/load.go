package report

import "github.com/dbgauge/dbgauge/internal/results"

// The files of a load run (dbgauge load): its loads as text and CSV.
func init() {
	RegisterFiles("load", func(r results.Results) (map[string][]byte, error) {
		t := LoadRunTable(r.(*results.LoadResults))
		return map[string][]byte{"loads.txt": t.TextBytes(), "loads.csv": t.CSVBytes()}, nil
	})
}

// LoadRunTable is the table of a load run: one row per relation and
// size, as the Wisconsin run shows its loads.
func LoadRunTable(r *results.LoadResults) *Table {
	return LoadTable(&results.WisconsinResults{Loads: r.Loads})
}
