package htmlreport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// handbookRatio is the smallest relation-to-buffer-pool ratio the
// Handbook accepts: below it the relation is mostly cached.
const handbookRatio = 5

// maxListed caps the warnings of one kind (e.g. failed queries): past it,
// one line counts the rest; the tables list them all.
const maxListed = 10

// wisconsinWarnings adds what a reader must know before trusting the
// times: a relation too small for the buffer pool, failed queries, an
// incomplete run, caches that could not be emptied, the protocol's drops,
// and the run's own warnings.
func (r *Run) wisconsinWarnings(d *Doc, sizes []wisconsinSize) {
	w := r.wisconsin()
	r.warnIncomplete(d, w.Complete, w.Error, "what was measured")
	for _, b := range w.BufferRatios {
		switch {
		case b.BufferPoolBytes <= 0:
			r.warn(d, fmt.Sprintf("N=%d: the buffer pool size is unknown, so the relation-to-buffer ratio could not be checked", b.Size))
		case b.Ratio < handbookRatio:
			r.warn(d, fmt.Sprintf("N=%d: buffer ratio %s (relation %s, buffer pool %s) is below the Handbook's %d: the times are those of a mostly cached relation",
				b.Size, num(b.Ratio), bytesLabel(b.RelationBytes), bytesLabel(b.BufferPoolBytes), handbookRatio))
		}
	}
	var failed []string
	for _, s := range sizes {
		for _, q := range s.queries {
			if q.Status == results.StatusOK || q.Status == results.StatusNotApplicable {
				continue
			}
			msg := fmt.Sprintf("N=%d: Q%d (%s, %s): %s", s.size, q.Query, q.Organization, q.Destination, report.Cell(q))
			if q.Status == results.StatusMismatch {
				msg += fmt.Sprintf(", %d rows where %d were expected", q.Rows, q.ExpectedRows)
			}
			if q.Reason != "" {
				msg += ": " + q.Reason
			}
			failed = append(failed, msg)
		}
	}
	r.warnList(d, failed, "more query results failed")
	if f := w.CacheFlush; f != nil {
		for _, nd := range f.NotDone {
			// the experiment notes it in the manifest in these words
			r.warn(d, "cold cache: not emptied: "+nd)
		}
	}
	if p := w.Protocol; p != nil {
		var dropped []string
		for _, q := range w.Queries {
			if q.ProtocolRetained != nil && !*q.ProtocolRetained {
				dropped = append(dropped, fmt.Sprintf("N=%d: the timing protocol dropped Q%d (%s, %s): %s",
					q.Size, q.Query, q.Organization, q.Destination, strings.Join(q.ProtocolDrops, ", ")))
			}
		}
		if p.QEsDroppedPct > 0 || p.QaCsDroppedPct > 0 {
			r.warn(d, fmt.Sprintf("the timing protocol dropped %s%% of the query executions and %s%% of the query results by its sanity checks",
				pct(p.QEsDroppedPct), pct(p.QaCsDroppedPct)))
		}
		r.warnList(d, dropped, "more query results dropped by the timing protocol")
		for _, msg := range protocolWarnings(p) {
			r.warn(d, msg)
		}
	}
	for _, msg := range w.Warnings {
		if !restatesBufferRatio(msg, w.BufferRatios) {
			r.warn(d, msg)
		}
	}
}

// restatesBufferRatio says whether a warning of the run is the
// experiment's own wording of a buffer ratio the page already states from
// the numbers ("N=1000: relation (...) is only 0.10 times the sqlite
// buffer pool ..."), so that it is not said twice.
func restatesBufferRatio(msg string, ratios []results.BufferRatio) bool {
	for _, b := range ratios {
		if strings.HasPrefix(msg, fmt.Sprintf("N=%d: ", b.Size)) && strings.Contains(msg, "buffer pool") &&
			(b.BufferPoolBytes <= 0 || b.Ratio < handbookRatio) {
			return true
		}
	}
	return false
}

// warn adds msg to the page's warnings unless it is there already or the
// manifest's notes carry it (Doc appends those after the experiment's own,
// and experiments copy some warnings into the manifest).
func (r *Run) warn(d *Doc, msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" || slices.Contains(d.Warnings, msg) || (r.Manifest != nil && slices.Contains(r.Manifest.Notes, msg)) {
		return
	}
	d.Warnings = append(d.Warnings, msg)
}

// warnIncomplete says that a run failed (stopped early, or lost journal
// entries), why, and that the page shows what it measured until then
// ("the scales measured").
func (r *Run) warnIncomplete(d *Doc, complete bool, err, shown string) {
	if complete {
		return
	}
	msg := "the run did not complete: the page shows " + shown + " until it failed"
	if err != "" {
		msg += " (" + err + ")"
	}
	r.warn(d, msg)
}

// warnList adds the first maxListed of msgs, then one line counting the
// rest ("and 12 more query results failed").
func (r *Run) warnList(d *Doc, msgs []string, more string) {
	for i, m := range msgs {
		if i == maxListed {
			r.warn(d, fmt.Sprintf("and %d %s (see the tables)", len(msgs)-maxListed, more))
			return
		}
		r.warn(d, m)
	}
}
