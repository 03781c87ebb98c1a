package htmlreport

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// sortedScales are the scales of a sweep, smallest first, whatever order
// they ran in (the readings walk along the scale axis, as the diagrams do).
func sortedScales(r *results.DSBenchResults) []results.ScaleResult {
	s := slices.Clone(r.Scales)
	slices.SortStableFunc(s, func(a, b results.ScaleResult) int { return cmp.Compare(a.Scale, b.Scale) })
	return s
}

// peakScale is the index of the highest median rate (the first of equals).
func peakScale(s []results.ScaleResult) int {
	p := 0
	for i := range s {
		if s[i].MedianTPS > s[p].MedianTPS {
			p = i
		}
	}
	return p
}

// dsbenchHeadlines are the summary of a sweep: the DSI, the median rate of
// every scale, the consistency checks, and the peak rate.
func dsbenchHeadlines(r *results.DSBenchResults) []Headline {
	scales := sortedScales(r)
	var out []Headline
	if r.DSI != nil {
		out = append(out, Headline{Label: "DSI", Value: strconv.FormatFloat(*r.DSI, 'f', 3, 64), Note: "seed 001 eq. 12, over scales " + scaleList(scales)})
	} else {
		out = append(out, Headline{Label: "DSI", Value: "none", Note: "needs two scales with positive rates"})
	}
	for _, s := range scales {
		h := Headline{Label: fmt.Sprintf("scale %d", s.Scale), Value: num(s.MedianTPS) + " tps",
			Note: fmt.Sprintf("median of %d cycles", len(s.Cycles))}
		if s.DBSizeBytes > 0 {
			h.Label += " (" + bytesLabel(s.DBSizeBytes) + ")"
		}
		if s.Failed > 0 {
			h.Note += fmt.Sprintf(", %d failed", s.Failed)
		}
		out = append(out, h)
	}
	if len(scales) == 0 {
		return out
	}
	var bad, unchecked []string
	for _, s := range scales {
		switch s.Consistency() {
		case "false":
			bad = append(bad, strconv.FormatInt(s.Scale, 10))
		case "not checked":
			unchecked = append(unchecked, strconv.FormatInt(s.Scale, 10))
		}
	}
	cons := Headline{Label: "consistency check", Value: fmt.Sprintf("all %d scales consistent", len(scales))}
	if len(scales) == 1 {
		cons.Value = "consistent"
	}
	if len(bad) > 0 {
		cons.Value = fmt.Sprintf("FAILED at %d of %d scales", len(bad), len(scales))
		cons.Note = "scale " + strings.Join(bad, ", ")
	} else if len(unchecked) > 0 {
		// A lock kept the check from reading: unknown, not failed.
		cons.Value = fmt.Sprintf("not checked at %d of %d scales", len(unchecked), len(scales))
		cons.Note = "scale " + strings.Join(unchecked, ", ") + ": the check could not read the database"
	}
	p := scales[peakScale(scales)]
	out = append(out, cons, Headline{Label: "peak rate", Value: num(p.MedianTPS) + " tps", Note: fmt.Sprintf("at scale %d", p.Scale)})
	if len(r.Agents) > 0 {
		out = append(out, nodesHeadline(r.Agents))
	}
	return out
}

// nodesHeadline counts the load nodes of a distributed sweep and those
// that did not run to the end.
func nodesHeadline(agents []results.AgentInfo) Headline {
	var failed []string
	for _, a := range agents {
		if a.Status != "ok" {
			failed = append(failed, a.Name+" "+a.Status)
		}
	}
	h := Headline{Label: "load nodes", Value: fmt.Sprintf("%d agents", len(agents)), Note: "all ran to the end"}
	if len(failed) > 0 {
		h.Note = strings.Join(failed, ", ")
	}
	return h
}

// scaleList writes the scales run: "1, 2, 5, 10".
func scaleList(s []results.ScaleResult) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.FormatInt(x.Scale, 10)
	}
	return strings.Join(parts, ", ")
}
