package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// FailoverLine says in one line what a node's crash did to the clients:
// the outage, the time back to the rate, the rejoin, the errors and the
// acknowledged writes lost.
func FailoverLine(f *results.Failover) string {
	if f.KillAt.IsZero() {
		return fmt.Sprintf("node %d was not killed: %s", f.Node, f.Fault)
	}
	parts := []string{fmt.Sprintf("node %d (%s) killed at %.1f s", f.Node, f.Role, f.AfterS)}
	if f.Promoted > 0 {
		parts = append(parts, fmt.Sprintf("node %d promoted after %s s", f.Promoted, seconds(f.PromotedS)))
	}
	parts = append(parts, fmt.Sprintf("outage %.2f s", f.OutageS))
	if f.ClientsAffected > 0 {
		parts = append(parts, fmt.Sprintf("%d clients saw it (%.2f s median, %.2f s max)", f.ClientsAffected, f.ClientOutageMedianS, f.ClientOutageMaxS))
	}
	back := "not back to the rate while observed"
	if f.BackToRateS != nil {
		back = fmt.Sprintf("back to %.0f%% of %.1f tps after %.2f s", 100*results.FailoverBackShare, f.BeforeTPS, *f.BackToRateS)
	}
	parts = append(parts, back)
	if e := ErrorCounts(f.Errors); e != "" {
		parts = append(parts, "errors "+e)
	}
	if f.RejoinS != nil {
		parts = append(parts, fmt.Sprintf("rejoined in %.1f s", *f.RejoinS))
	}
	if f.Checked {
		parts = append(parts, AckLine(&f.AckCheck))
	}
	line := strings.Join(parts, "; ")
	if f.Fault != "" {
		line += "; fault: " + f.Fault
	}
	return line
}

// AckLine says what became of the acknowledged writes, naming the first
// lost one.
func AckLine(a *results.AckCheck) string {
	line := fmt.Sprintf("%d of %d acknowledged writes lost", a.LostAcked, a.Acked)
	if len(a.Lost) > 0 {
		line += " (first: " + lostWrite(a.Lost[0]) + ")"
	}
	return line
}

// lostWrite names a lost write: its cycle, client, sequence number and
// the node it was acknowledged on.
func lostWrite(l results.LostWrite) string {
	s := fmt.Sprintf("cycle %d, client %d, transaction %d", l.Cycle, l.Client, l.Seq)
	if l.Node > 0 {
		s += fmt.Sprintf(", on node %d", l.Node)
	}
	return s
}

// DSBenchAcksTable is the check of acknowledged writes of every scale
// run with --check-acks (a failover's is in its own table); nil when
// there was none.
func DSBenchAcksTable(r *results.DSBenchResults) *Table {
	t := &Table{Rows: [][]string{{"scale", "acknowledged", "lost", "lost ones listed"}}}
	for _, s := range r.Scales {
		a := s.Acks
		if a == nil {
			continue
		}
		var lost []string
		for _, l := range a.Lost {
			lost = append(lost, lostWrite(l))
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), strconv.FormatInt(a.Acked, 10), strconv.FormatInt(a.LostAcked, 10), strings.Join(lost, "; ")})
	}
	if len(t.Rows) == 1 {
		return nil
	}
	return t
}

func seconds(s *float64) string {
	if s == nil {
		return "-"
	}
	return strconv.FormatFloat(*s, 'f', 2, 64)
}

// DSBenchFailoverTable is the failover's figures, a row per scale that
// had one; nil when none did.
func DSBenchFailoverTable(r *results.DSBenchResults) *Table {
	t := &Table{Rows: [][]string{{"scale", "node killed", "at (s)", "promoted", "outage (s)", "clients affected", "client outage median/max (s)",
		"tps before", "back to 90% (s)", "errors", "rejoin (s)", "tps during rejoin", "acked writes", "lost"}}}
	for _, s := range r.Scales {
		f := s.Failover
		if f == nil {
			continue
		}
		promoted := "-"
		if f.Promoted > 0 {
			promoted = fmt.Sprintf("node %d after %s s", f.Promoted, seconds(f.PromotedS))
		}
		rejoinTPS := "-"
		if f.RejoinTPS != nil {
			rejoinTPS = fmt.Sprintf("%.1f", *f.RejoinTPS)
		}
		acked, lost := "not checked", "-"
		if f.Checked {
			acked, lost = strconv.FormatInt(f.Acked, 10), strconv.FormatInt(f.LostAcked, 10)
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), fmt.Sprintf("%d %s (%s)", f.Node, f.Addr, f.Role), fmt.Sprintf("%.1f", f.AfterS), promoted,
			fmt.Sprintf("%.2f", f.OutageS), strconv.Itoa(f.ClientsAffected), fmt.Sprintf("%.2f / %.2f", f.ClientOutageMedianS, f.ClientOutageMaxS),
			fmt.Sprintf("%.1f", f.BeforeTPS), seconds(f.BackToRateS), ErrorCounts(f.Errors), seconds(f.RejoinS), rejoinTPS, acked, lost})
	}
	if len(t.Rows) == 1 {
		return nil
	}
	return t
}
