package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// multiuserPoint is the point of n users, nil when it was not measured.
func multiuserPoint(m *results.MultiuserResults, users int) *results.MultiuserPoint {
	for i := range m.Points {
		if p := &m.Points[i]; p.Users == users && p.N > 0 {
			return p
		}
	}
	return nil
}

// multiuserSummary: the peak thruput and where it is reached, T(1), the
// zero-user overhead, the largest user count and how the users ran.
func multiuserSummary(m *results.MultiuserResults) []Headline {
	var hs []Headline
	if u, th, ok := report.MultiuserPeak(m); ok {
		hs = append(hs, Headline{Label: "peak thruput", Value: num(th), Note: fmt.Sprintf("at %d users (ideal %d)", u, u)})
	} else {
		hs = append(hs, Headline{Label: "peak thruput", Value: "n/a", Note: "no one-user time to relate the others to"})
	}
	if p := multiuserPoint(m, 1); p != nil {
		note := fmt.Sprintf("one user's %d retrieves, median of %d", m.Retrieves, p.N)
		if m.SubtractOverhead {
			note += ", overhead subtracted"
		}
		hs = append(hs, Headline{Label: "T(1)", Value: msText(p.MedianMS), Note: note})
	}
	if m.OverheadMS != nil {
		how := "not subtracted"
		if m.SubtractOverhead {
			how = "subtracted from every time"
		}
		hs = append(hs, Headline{Label: "zero-user overhead", Value: msText(*m.OverheadMS), Note: "the master's release and join alone; " + how})
	} else {
		hs = append(hs, Headline{Label: "zero-user overhead", Value: "not measured", Note: "0 was not among the user counts"})
	}
	if n := len(m.Points); n > 0 {
		if p := multiuserPoint(m, m.Points[n-1].Users); p != nil && p.Users > 1 && p.Thruput != nil {
			hs = append(hs, Headline{Label: fmt.Sprintf("T(%d)", p.Users), Value: msText(p.MedianMS),
				Note: fmt.Sprintf("%d users together; thruput %s", p.Users, num(*p.Thruput))})
		}
	}
	how := "one goroutine and one connection per user"
	if m.Mode == "processes" {
		how = "one operating-system process per user, its client cost included"
	}
	hs = append(hs, Headline{Label: "users as", Value: m.Mode, Note: fmt.Sprintf("%s; %d CPUs drove them", how, m.CPUs)})
	return hs
}

// multiuserWarnings: an incomplete run, the run's own warnings, user
// counts without all their repetitions, repetitions that fetched other
// than users x retrieves x rows, and a run without the one-user time every
// thruput is relative to.
func multiuserWarnings(m *results.MultiuserResults) []string {
	w := runStateWarnings(m.Complete, m.Error, m.Warnings)
	for _, u := range m.Users {
		switch p := multiuserPoint(m, u); {
		case p == nil:
			w = append(w, fmt.Sprintf("%d users: not measured.", u))
		case p.N < m.Reps:
			w = append(w, fmt.Sprintf("%d users: only %d of %d repetitions measured.", u, p.N, m.Reps))
		}
	}
	for _, c := range m.Retried {
		w = append(w, fmt.Sprintf("%d users, repetition %d: cut short by a fault of the connection or the server (%s: %s); not a result, measured again after a backoff capped at %g s (%d failed attempts: %s).",
			c.Users, c.Rep, c.Class, firstLine(c.Error), m.BackoffCapS, c.Attempts, report.ErrorCounts(c.Errors)))
	}
	var bad []string
	for _, run := range m.Runs {
		if want := int64(run.Users*m.Retrieves) * m.RowsPerRetrieve; run.Rows != want {
			bad = append(bad, fmt.Sprintf("%d users repetition %d fetched %d rows, expected %d", run.Users, run.Rep, run.Rows, want))
		}
	}
	if len(bad) > 0 {
		w = append(w, "Cardinality mismatch: "+listText(bad, 4)+".")
	}
	if multiuserPoint(m, 1) == nil && len(m.Points) > 0 {
		w = append(w, "No one-user time: thruput (users x T(1) / T(users)) cannot be computed; include 1 in --users.")
	}
	return w
}
