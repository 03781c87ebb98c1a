package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The load nodes of a distributed sweep (dbgauge agent), as tables built
// once from results.json and rendered as text (after the 23 columns of
// results.txt), CSV (nodes.csv, agents.csv, node_cycles.csv) and on the
// page. The tables hold numbers at full precision, as the CSV keeps them;
// the text and the page round them. A local run has none of them: its
// outputs stay as they were.

// DSBenchDistributed says whether the sweep ran on remote load nodes.
func DSBenchDistributed(r *results.DSBenchResults) bool { return len(r.Agents) > 0 }

// DSBenchNodeRates is one row per scale and node: the node's median rate
// over the scale's cycles (each cycle's transactions over the demanded
// duration D), its transactions and failed trials. nil for a local run.
func DSBenchNodeRates(r *results.DSBenchResults) *Table {
	if !DSBenchDistributed(r) {
		return nil
	}
	t := &Table{Rows: [][]string{{"scale", "node", "name", "median_tps", "transactions", "failed"}}}
	for _, s := range r.Scales {
		for _, n := range s.NodeRates {
			t.Rows = append(t.Rows, []string{itoa64(s.Scale), results.NodeNumber(n.Node), n.Name, fullFloat(n.MedianTPS),
				itoa64(n.Transactions), itoa64(n.Failed)})
		}
	}
	return t
}

// DSBenchAgents is one row per agent: who it was, how well its clock was
// tied to the master's (offset and the bound of its error), the seconds
// it went unheard, its median rate at every scale, its status and what
// happened to it. nil for a local run.
func DSBenchAgents(r *results.DSBenchResults) *Table {
	if !DSBenchDistributed(r) {
		return nil
	}
	head := []string{"node", "name", "host", "version", "cores", "clock_offset_ms", "clock_error_ms", "heartbeats_lost"}
	for _, s := range r.Scales {
		head = append(head, "tps_scale"+itoa64(s.Scale))
	}
	t := &Table{Rows: [][]string{append(head, "status", "events")}}
	for _, a := range r.Agents {
		row := []string{results.NodeNumber(a.Node), a.Name, a.Host, a.Version, strconv.Itoa(a.Cores),
			fullFloat(a.ClockOffsetMS), fullFloat(a.ClockErrorMS), itoa64(a.HeartbeatsLost)}
		for _, s := range r.Scales {
			cell := "-" // the node had no share of this scale
			for _, n := range s.NodeRates {
				if n.Node == a.Node {
					cell = fullFloat(n.MedianTPS)
				}
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, append(row, a.Status, strings.Join(a.Events, "; ")))
	}
	return t
}

// DSBenchNodeCycles is one row per scale, cycle and node: the node's
// transactions, failed trials and rate over D, when it began the cycle
// after the announced start (in the master's clock), whether it was lost
// in it, how far apart all nodes began the cycle, and the cycle's flag
// (why it is not like the others). nil for a local run.
func DSBenchNodeCycles(r *results.DSBenchResults) *Table {
	if !DSBenchDistributed(r) {
		return nil
	}
	t := &Table{Rows: [][]string{{"scale", "cycle", "node", "name", "transactions", "failed", "tps", "start_lag_ms", "lost", "start_spread_ms", "flag"}}}
	for _, s := range r.Scales {
		for _, c := range s.NodeCycles {
			for _, n := range c.Nodes {
				lost := ""
				if n.Lost {
					lost = "LOST"
				}
				t.Rows = append(t.Rows, []string{itoa64(s.Scale), strconv.Itoa(c.Cycle), results.NodeNumber(n.Node), n.Name,
					itoa64(n.Transactions), itoa64(n.Failed), fullFloat(n.TPS), fullFloat(n.StartLagMS),
					lost, fullFloat(c.StartSpreadMS), c.Flag})
			}
		}
	}
	return t
}

// DSBenchNodeFailures says, one line per node whose status is not "ok",
// what happened to it, in the words of its events.
func DSBenchNodeFailures(r *results.DSBenchResults) []string {
	var out []string
	for _, a := range r.Agents {
		if a.Status == "ok" {
			continue
		}
		line := fmt.Sprintf("node %s %s (%s) %s", results.NodeNumber(a.Node), a.Name, a.Host, strings.ToUpper(a.Status))
		if len(a.Events) > 0 {
			line += ": " + strings.Join(a.Events, "; ")
		} else {
			line += ": no event recorded"
		}
		out = append(out, line)
	}
	return out
}

// DSBenchFlaggedCycles says, one line per cycle with a flag, which cycle
// and why it is not like the others.
func DSBenchFlaggedCycles(r *results.DSBenchResults) []string {
	var out []string
	for _, s := range r.Scales {
		for _, c := range s.NodeCycles {
			if c.Flag != "" {
				out = append(out, fmt.Sprintf("scale %d cycle %d: %s", s.Scale, c.Cycle, c.Flag))
			}
		}
	}
	return out
}

// DSBenchStartSpreads says, one line per scale, how far apart the nodes
// began its cycles at most (the largest start spread).
func DSBenchStartSpreads(r *results.DSBenchResults) []string {
	var out []string
	for _, s := range r.Scales {
		if len(s.NodeCycles) == 0 {
			continue
		}
		top := s.NodeCycles[0]
		for _, c := range s.NodeCycles[1:] {
			if c.StartSpreadMS > top.StartSpreadMS {
				top = c
			}
		}
		out = append(out, fmt.Sprintf("scale %d: the nodes began the scale's %d cycles at most %s ms apart (cycle %d)",
			s.Scale, len(s.NodeCycles), sigDigits(top.StartSpreadMS, 3), top.Cycle))
	}
	return out
}

// DSBenchNodeSums checks that the nodes' counts add up to the scale's, as
// the merge promises: one line per scale where the per-node rates or the
// per-cycle node counts do not (none when all add up).
func DSBenchNodeSums(r *results.DSBenchResults) []string {
	var out []string
	for _, s := range r.Scales {
		var tx, failed, ctx, cfailed int64
		for _, n := range s.NodeRates {
			tx, failed = tx+n.Transactions, failed+n.Failed
		}
		for _, c := range s.NodeCycles {
			for _, n := range c.Nodes {
				ctx, cfailed = ctx+n.Transactions, cfailed+n.Failed
			}
		}
		if len(s.NodeRates) > 0 && (tx != s.Transactions || failed != s.Failed) {
			out = append(out, fmt.Sprintf("scale %d: the nodes' rates count %d transactions and %d failed trials, the scale %d and %d", s.Scale, tx, failed, s.Transactions, s.Failed))
		}
		if len(s.NodeCycles) > 0 && (ctx != s.Transactions || cfailed != s.Failed) {
			out = append(out, fmt.Sprintf("scale %d: the nodes' cycles count %d transactions and %d failed trials, the scale %d and %d", s.Scale, ctx, cfailed, s.Transactions, s.Failed))
		}
	}
	return out
}

// DSBenchNodeFiles are the CSV files of a distributed sweep (none for a
// local run): nodes.csv (per scale and node), agents.csv and
// node_cycles.csv (per scale, cycle and node).
func DSBenchNodeFiles(r *results.DSBenchResults) map[string][]byte {
	out := map[string][]byte{}
	for name, t := range map[string]*Table{"nodes.csv": DSBenchNodeRates(r), "agents.csv": DSBenchAgents(r), "node_cycles.csv": DSBenchNodeCycles(r)} {
		if t != nil {
			out[name] = t.CSVBytes()
		}
	}
	return out
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

func fullFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
