package nodes

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/driver"
)

// Per-type figures travel with a node's cycle as counts and encoded
// histograms, so that the master adds them up exactly (counts summed,
// histograms merged) like the node's totals.

// typeRows are a cycle's types as a report carries them.
func typeRows(ts []driver.TypeResult) ([]typeRow, error) {
	var out []typeRow
	for _, t := range ts {
		h, err := encode(t.Residence)
		if err != nil {
			return nil, fmt.Errorf("type %s: %w", t.Name, err)
		}
		row := typeRow{Name: t.Name, Committed: t.Committed, Failed: t.Failed, Retries: t.Retries, Errors: t.Errors[:], Residence: h}
		for _, s := range t.Statements {
			sh, err := encode(s.Residence)
			if err != nil {
				return nil, fmt.Errorf("type %s statement %s: %w", t.Name, s.Name, err)
			}
			row.Statements = append(row.Statements, statementRow{Name: s.Name, Residence: sh})
		}
		out = append(out, row)
	}
	return out, nil
}

// typeResults reads a report's types back.
func typeResults(rows []typeRow) ([]driver.TypeResult, error) {
	var out []driver.TypeResult
	for _, r := range rows {
		t := driver.TypeResult{Name: r.Name, Committed: r.Committed, Failed: r.Failed, Retries: r.Retries}
		copy(t.Errors[:], r.Errors)
		var err error
		if t.Residence, err = decodeOrEmpty(r.Residence); err != nil {
			return nil, fmt.Errorf("residence histogram of type %s: %w", r.Name, err)
		}
		for _, s := range r.Statements {
			sr := driver.StatementResult{Name: s.Name}
			if sr.Residence, err = decodeOrEmpty(s.Residence); err != nil {
				return nil, fmt.Errorf("histogram of type %s statement %s: %w", r.Name, s.Name, err)
			}
			t.Statements = append(t.Statements, sr)
		}
		out = append(out, t)
	}
	return out, nil
}
