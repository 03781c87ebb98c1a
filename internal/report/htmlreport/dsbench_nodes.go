package htmlreport

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

// dsbenchNodeSections are the load nodes of a distributed sweep, from the
// tables report builds for results.txt and the CSV files: the agents (with
// their clock offsets and error bounds, heartbeats lost, rate per scale,
// status and events) and, right below them, what happened to any node
// that failed and which cycles were flagged; the node diagram; the rate
// of each node per scale; and every cycle on every node, flags included.
// None for a local run.
func dsbenchNodeSections(ds *results.DSBenchResults, charts map[string][]byte) []Section {
	agents := report.DSBenchAgents(ds)
	if agents == nil {
		return nil
	}
	out := []Section{{ID: "nodes", Title: "Load nodes", Reading: agentsReading(ds), Table: readable(agents), HTML: nodeTroubleHTML(ds)}}
	out = append(out, chartSections(charts, []diagram{{"node", "Rate per node", nodeReading(sortedScales(ds))}})...)
	return append(out,
		Section{ID: "node_rates", Title: "Rate per node and scale", Reading: "A node's rate in a cycle is the transactions it committed inside the cycle over the demanded duration; median_tps is the median over the scale's cycles. The nodes' transactions and failed trials add up to the scale's (results.txt columns 8 and 9).",
			Table: readable(report.DSBenchNodeRates(ds))},
		Section{ID: "node_cycles", Title: "Cycles on each node", Reading: nodeCyclesReading(ds), Table: readable(report.DSBenchNodeCycles(ds))},
	)
}

// readable is t with its fractional numbers rounded as results.txt
// rounds them (node_cycles.csv and the others keep full precision).
func readable(t *report.Table) *report.Table {
	return &report.Table{Title: t.Title, Rows: report.ReadableRows(t.Rows), Notes: t.Notes}
}

// agentsReading says how many agents loaded the server, how closely
// their clocks were tied to the master's, and how far apart they began
// their cycles.
func agentsReading(ds *results.DSBenchResults) string {
	worst := ds.Agents[0]
	ok := 0
	for _, a := range ds.Agents {
		if a.ClockErrorMS > worst.ClockErrorMS {
			worst = a
		}
		if a.Status == "ok" {
			ok++
		}
	}
	out := fmt.Sprintf("%d load nodes (dbgauge agent) ran the clients, %d of them to the end. A clock offset is the agent's clock minus the master's, known within ± its error bound (at most %s ms, %s); the cycles' start times were announced in the master's clock and converted with it.",
		len(ds.Agents), ok, num(worst.ClockErrorMS), worst.Name)
	if spreads := report.DSBenchStartSpreads(ds); len(spreads) > 0 {
		out += " Start spread per scale: " + strings.Join(spreads, "; ") + "."
	}
	return out
}

// nodeTroubleHTML is the box under the agents table that says what
// happened to every node that failed, which cycles were flagged, and any
// count that does not add up; empty when the nodes ran cleanly.
func nodeTroubleHTML(ds *results.DSBenchResults) template.HTML {
	var b strings.Builder
	for _, g := range []struct {
		title string
		lines []string
	}{
		{"Nodes that failed", report.DSBenchNodeFailures(ds)},
		{"Flagged cycles", report.DSBenchFlaggedCycles(ds)},
		{"Counts that do not add up", report.DSBenchNodeSums(ds)},
	} {
		if len(g.lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "<p><strong>%s</strong></p><ul>\n", esc(g.title))
		for _, l := range g.lines {
			fmt.Fprintf(&b, "<li>%s</li>\n", esc(l))
		}
		b.WriteString("</ul>\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return template.HTML(`<div class="warn">` + "\n" + b.String() + "</div>")
}

// nodeCyclesReading introduces the per-cycle table: what its columns mean
// and which cycles carry a flag.
func nodeCyclesReading(ds *results.DSBenchResults) string {
	out := "One row per cycle and node: start_lag_ms is when the node's clients began the cycle after its announced start (in the master's clock), start_spread_ms how far apart all nodes began it; a node lost in a cycle counts what it sent before, or nothing."
	if f := report.DSBenchFlaggedCycles(ds); len(f) > 0 {
		out += fmt.Sprintf(" %d flagged (the flag column says why): %s.", len(f), listText(flaggedNames(ds), 8))
	} else {
		out += " No cycle is flagged."
	}
	return out
}

// flaggedNames are the flagged cycles as "scale 2 cycle 2".
func flaggedNames(ds *results.DSBenchResults) []string {
	var out []string
	for _, s := range ds.Scales {
		for _, c := range s.NodeCycles {
			if c.Flag != "" {
				out = append(out, fmt.Sprintf("scale %d cycle %d", s.Scale, c.Cycle))
			}
		}
	}
	return out
}

// flaggedReading is the sentence added under the rate by cycle diagram of
// a sweep with flagged cycles (ringed there); "" when none is.
func flaggedReading(ds *results.DSBenchResults) string {
	names := flaggedNames(ds)
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" Ringed: the flagged cycles (%s), which ran without all the load nodes (see Load nodes).", listText(names, 8))
}

// nodeReading compares the nodes' median rates at the largest scale with
// the total, from the per-node rates the run stored.
func nodeReading(s []results.ScaleResult) string {
	if len(s) == 0 {
		return ""
	}
	x := s[len(s)-1]
	if len(x.NodeRates) == 0 {
		return ""
	}
	rates := slices.Clone(x.NodeRates)
	slices.SortStableFunc(rates, func(a, b results.NodeRate) int { return cmp.Compare(a.MedianTPS, b.MedianTPS) })
	lo, hi := rates[0], rates[len(rates)-1]
	return fmt.Sprintf("Lines: each node's median rate over the demanded duration, with the mean and min..max of its cycles; the black line is the total. At scale %d the %d nodes' median rates range from %s tps (%s) to %s tps (%s); the scale's median rate is %s tps.",
		x.Scale, len(rates), num(lo.MedianTPS), lo.Name, num(hi.MedianTPS), hi.Name, num(x.MedianTPS))
}
