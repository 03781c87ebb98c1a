package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/results"
)

// protocolWarnings are the timing protocol's verdicts a reader must see
// before the times (qac, and wisconsin --protocol ttp): checks that failed
// for the whole experiment, where the protocol deviated from its
// specification, and failed post checks. What it dropped each page says
// in its own terms.
func protocolWarnings(p *results.Protocol) []string {
	var out []string
	for _, v := range p.Violations {
		if v.Scope == "experiment" {
			out = append(out, "experiment-wide check "+v.Check+" failed, so the run is dirty: "+v.Detail)
		}
	}
	for _, dv := range p.Deviations {
		out = append(out, "protocol deviation: "+dv)
	}
	for _, v := range p.PostChecks {
		where := ""
		if v.Where != "" {
			where = " (" + v.Where + ")"
		}
		out = append(out, "post check "+v.Check+where+" failed: "+v.Detail)
	}
	return out
}
