package htmlreport

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
)

// dsbenchWarnings adds what a reader must know before trusting the
// rates: an incomplete sweep, load nodes that failed, cycles flagged for
// it, nodes' counts that do not add up, scales whose consistency check failed,
// failed transaction trials, an open loop that fell behind its schedule,
// and the sweep's own warnings.
func (r *Run) dsbenchWarnings(d *Doc) {
	ds := r.dsbench()
	r.warnIncomplete(d, ds.Complete, ds.Error, "the scales measured")
	for _, l := range report.DSBenchNodeFailures(ds) {
		r.warn(d, "load "+l+" (see Load nodes)")
	}
	var flagged []string
	for _, l := range report.DSBenchFlaggedCycles(ds) {
		flagged = append(flagged, "flagged "+l)
	}
	r.warnList(d, flagged, "flagged cycles")
	for _, l := range report.DSBenchNodeSums(ds) {
		r.warn(d, "the load nodes' counts do not add up: "+l)
	}
	for _, s := range sortedScales(ds) {
		if s.Consistency() == "not checked" {
			r.warn(d, fmt.Sprintf("scale %d: consistency not checked: %s", s.Scale, s.Unchecked))
		} else if !s.Consistent {
			why := strings.Join(s.Inconsistency, "; ")
			if why == "" {
				why = "no detail recorded"
			}
			r.warn(d, fmt.Sprintf("scale %d failed its consistency check: %s", s.Scale, why))
		}
		if s.Failed > 0 {
			trials := s.Transactions + s.Failed
			w := fmt.Sprintf("scale %d: %d failed transaction trials, %s%% of %d trials", s.Scale, s.Failed, pct(100*float64(s.Failed)/float64(trials)), trials)
			if e := report.ErrorCounts(s.Errors); e != "" {
				w += " (" + e + ")"
			}
			r.warn(d, w)
		}
		if s.Reconnects > 0 || s.InDoubt > 0 {
			r.warn(d, fmt.Sprintf("scale %d: the clients lost their connections: %d reconnect attempts, %d commits in doubt (see Faults of the connection and the server)", s.Scale, s.Reconnects, s.InDoubt))
		}
		if s.Lag != nil && s.Lag.Skipped > 0 {
			r.warn(d, fmt.Sprintf("scale %d: the open loop fell behind and skipped %d intended starts", s.Scale, s.Lag.Skipped))
		}
	}
	for _, w := range ds.Warnings {
		r.warn(d, w)
	}
}
