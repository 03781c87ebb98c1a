package htmlreport

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The one-line readings of the speedup page's diagrams, each computed
// from the part it draws.

// speedupReading: at the largest p, the range of the speedups against the
// reference (with the curves at both ends), the best against the ideal,
// and how many queries got faster or slower.
func speedupReading(p *results.SpeedupPart) string {
	_, top := partRange(p)
	if int(top) == p.Ref {
		return ""
	}
	type v struct {
		name string
		sp   float64
	}
	var vs []v
	for _, c := range p.Curves {
		if pt := curvePoint(c, top); pt != nil && pt.Speedup > 0 {
			vs = append(vs, v{curveLabel(c), pt.Speedup})
		}
	}
	if len(vs) == 0 {
		return ""
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].sp < vs[j].sp })
	ideal := float64(top) / float64(p.Ref)
	if len(vs) == 1 {
		return fmt.Sprintf("At p=%d the speedup of %s against p=%d is %s, %s of the ideal %s.", top, vs[0].name, p.Ref, num(vs[0].sp), pctText(vs[0].sp/ideal), num(ideal))
	}
	faster, slower := 0, 0
	for _, x := range vs {
		switch {
		case x.sp > 1:
			faster++
		case x.sp < 1:
			slower++
		}
	}
	lo, hi := vs[0], vs[len(vs)-1]
	s := fmt.Sprintf("At p=%d the speedups against p=%d range from %s for %s to %s for %s, the best %s of the ideal %s; %d of %d queries ran faster than at p=%d, %d slower.",
		top, p.Ref, num(lo.sp), lo.name, num(hi.sp), hi.name, pctText(hi.sp/ideal), num(ideal), faster, len(vs), p.Ref, slower)
	return s
}

// responseReading: the response time at the largest p over that at the
// reference, as a geometric mean over the queries and per query, and the
// fastest and slowest query there (the log axis spans them).
func responseReading(p *results.SpeedupPart) string {
	_, top := partRange(p)
	ref := int64(p.Ref)
	if top == ref {
		return ""
	}
	var ratios []float64
	fast, slow := math.Inf(1), math.Inf(-1)
	for _, c := range p.Curves {
		a, b := curvePoint(c, ref), curvePoint(c, top)
		if b != nil {
			fast, slow = math.Min(fast, b.MedianMS), math.Max(slow, b.MedianMS)
		}
		if a != nil && b != nil && a.MedianMS > 0 && b.MedianMS > 0 {
			ratios = append(ratios, b.MedianMS/a.MedianMS)
		}
	}
	if len(ratios) == 0 {
		return ""
	}
	gm, lo, hi := ratioGeoMean(ratios)
	return fmt.Sprintf("At p=%d the response times are on geometric mean %s times those at p=%d (per query %s times); there the fastest query takes %s, the slowest %s.",
		top, num(gm), ref, spanText(lo, hi), msText(fast), msText(slow))
}

// memoryReading: how the response times changed from the most to the
// least join memory.
func memoryReading(p *results.SpeedupPart) string {
	lo, hi := partRange(p)
	if lo == hi {
		return ""
	}
	var ratios []float64
	for _, c := range p.Curves {
		a, b := curvePoint(c, hi), curvePoint(c, lo)
		if a != nil && b != nil && a.MedianMS > 0 && b.MedianMS > 0 {
			ratios = append(ratios, b.MedianMS/a.MedianMS)
		}
	}
	if len(ratios) == 0 {
		return ""
	}
	gm, rlo, rhi := ratioGeoMean(ratios)
	return fmt.Sprintf("From %s down to %s of join memory at p=%d the response times of %s change by a factor of %s (time at %s / time at %s; geometric mean %s).",
		sizeText(hi), sizeText(lo), p.P, countNoun(len(ratios), "query", "queries"), spanText(rlo, rhi), sizeText(lo), sizeText(hi), num(gm))
}

// batchesReading: the most hash batches of any query with the most and
// with the least memory.
func batchesReading(p *results.SpeedupPart) string {
	lo, hi := partRange(p)
	most := func(x int64) int {
		m := -1
		for _, c := range p.Curves {
			if pt := curvePoint(c, x); pt != nil {
				m = max(m, pt.HashBatches)
			}
		}
		return m
	}
	bHi, bLo := most(hi), most(lo)
	if bHi < 0 || bLo < 0 || lo == hi {
		return ""
	}
	s := fmt.Sprintf("With %s of join memory the most hash batches of any query is %d", sizeText(hi), bHi)
	if bHi == 1 {
		s += " (every hash table fits in memory)"
	}
	s += fmt.Sprintf("; with %s it is %d", sizeText(lo), bLo)
	switch {
	case bLo == bHi:
		s += ": the batches do not change over the sweep."
	case bLo > 1:
		s += ": with less memory the build side is split into batches written to temporary files."
	default:
		s += "."
	}
	return s
}

// pageSizeReading: which page sizes were fastest and slowest for how many
// queries, and how much the page size mattered per query.
func pageSizeReading(p *results.SpeedupPart) string {
	t := tallyPages(p)
	if t.queries == 0 {
		return ""
	}
	lo, hi := partRange(p)
	list := func(counts map[int64]int) string {
		var parts []string
		for i, x := range pagesByCount(counts) {
			if i == 3 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s for %d", sizeText(x), counts[x]))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("From %s to %s pages the fastest page size is %s of %d queries; the slowest is %s. Per query the slowest page size takes %s times as long as the fastest.",
		sizeText(lo), sizeText(hi), list(t.best), t.queries, list(t.worst), spanText(t.spreadLo, t.spreadHi))
}

// ratioGeoMean is the geometric mean of positive ratios with their
// smallest and largest.
func ratioGeoMean(xs []float64) (gm, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return stats.GeometricMean(xs), lo, hi
}
