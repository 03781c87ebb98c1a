package report

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dbgauge/dbgauge/internal/results"
)

// writeNodesText appends the load nodes of a distributed sweep to
// results.txt, after everything the local sweep writes (so that a local
// run's file is what it was): two empty lines, so that gnuplot reads the
// rate per node and scale as data block "index 1" ("using 1:4" for a
// node's rate), then, as comments, the largest start spread per scale,
// the flagged cycles, the nodes that failed, any count that does not add
// up, and the agents.
func writeNodesText(b *bytes.Buffer, r *results.DSBenchResults) {
	rates := DSBenchNodeRates(r)
	if rates == nil {
		return
	}
	b.WriteString("\n\n# load nodes (gnuplot: index 1): per scale and node, the node's transactions committed inside each cycle over the demanded duration D, median over the scale's cycles; the nodes' transactions and failed trials add up to columns 8 and 9 above\n")
	writeColumns(b, ReadableRows(rates.Rows))
	for _, l := range DSBenchStartSpreads(r) {
		b.WriteString("# " + l + "\n")
	}
	for _, l := range DSBenchFlaggedCycles(r) {
		b.WriteString("# FLAGGED " + l + "\n")
	}
	for _, l := range DSBenchNodeFailures(r) {
		b.WriteString("# " + l + "\n")
	}
	for _, l := range DSBenchNodeSums(r) {
		b.WriteString("# DOES NOT ADD UP: " + l + "\n")
	}
	b.WriteString("#\n# agents: clock_offset_ms is the agent's clock minus the master's, within +/- clock_error_ms; heartbeats_lost counts the seconds the master did not hear the agent; tps_scaleN is the node's median rate at scale N\n")
	writeCommented(b, ReadableRows(DSBenchAgents(r).Rows))
}

// writeCommented writes rows as comment lines in columns: numbers
// right-aligned, text left-aligned, the last column (free text) as it is.
func writeCommented(b *bytes.Buffer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	for i, row := range rows {
		line := "#"
		for j, c := range row {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			switch {
			case i > 0 && Numeric(c):
				line += "  " + pad + c
			case j < len(row)-1:
				line += "  " + c + pad
			default:
				line += "  " + c
			}
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// ReadableRows is rows with their fractional numbers rounded for reading
// (the header and the other cells as they are).
func ReadableRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, row := range rows {
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = c
			if i == 0 || !strings.Contains(c, ".") {
				continue
			}
			if v, err := strconv.ParseFloat(c, 64); err == nil {
				out[i][j] = readable(v)
			}
		}
	}
	return out
}

// readable writes v with a precision that suits its size: rates of
// hundreds to a tenth, clock offsets and lags in milliseconds to a
// microsecond.
func readable(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
