package htmlreport

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// curveLabel names a curve as the figures do, without a comma so that
// labels can be listed: "Q9 joinAselB (heap)", "0% selection (clustered)".
func curveLabel(c results.SpeedupCurve) string {
	if c.Query == 0 {
		return fmt.Sprintf("%s (%s)", c.Class, c.Org)
	}
	return fmt.Sprintf("Q%d %s (%s)", c.Query, c.Class, c.Org)
}

// curvePoint is the curve's point at x when it has times and no error.
func curvePoint(c results.SpeedupCurve, x int64) *results.SpeedupPoint {
	for i := range c.Points {
		if p := &c.Points[i]; p.X == x && p.Error == "" && len(p.TimesMS) > 0 {
			return p
		}
	}
	return nil
}

// partRange is the part's smallest and largest values.
func partRange(p *results.SpeedupPart) (lo, hi int64) {
	for i, x := range p.Values {
		if i == 0 || x < lo {
			lo = x
		}
		if i == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi
}

// speedupSummary: per query class the speedup at the largest p against
// the reference, with the ideal, or the part's reason where the engine has
// no such knob; the memory sweep's hash batches; the best and worst page
// size.
func speedupSummary(s *results.SpeedupResults) []Headline {
	var hs []Headline
	if p := s.Speedup; p != nil {
		if !p.Applicable {
			hs = append(hs, Headline{Label: "speedup", Value: "not applicable", Note: p.Reason})
		} else {
			hs = append(hs, classSpeedups(p)...)
		}
	}
	if p := s.Memory; p != nil {
		if !p.Applicable {
			hs = append(hs, Headline{Label: "join memory sweep", Value: "not applicable", Note: p.Reason})
		} else {
			hs = append(hs, batchesHeadline(p, s.Engine))
		}
	}
	if p := s.PageSize; p != nil {
		if !p.Applicable {
			hs = append(hs, Headline{Label: "page size", Value: "not applicable", Note: p.Reason})
		} else {
			hs = append(hs, pageSizeHeadlines(p)...)
		}
	}
	return hs
}

// classSpeedups is one headline per query class: the speedups at the
// largest p of its curves (one per organisation), their range as the
// value, each one in the note with the ideal.
func classSpeedups(p *results.SpeedupPart) []Headline {
	_, top := partRange(p)
	var classes []string
	byClass := map[string][]string{}
	lo, hi := map[string]float64{}, map[string]float64{}
	for _, c := range p.Curves {
		if _, ok := byClass[c.Class]; !ok {
			classes = append(classes, c.Class)
			byClass[c.Class] = nil
			lo[c.Class], hi[c.Class] = math.Inf(1), math.Inf(-1)
		}
		pt := curvePoint(c, top)
		if pt == nil || !(pt.Speedup > 0) {
			byClass[c.Class] = append(byClass[c.Class], c.Org+" -")
			continue
		}
		byClass[c.Class] = append(byClass[c.Class], c.Org+" "+num(pt.Speedup))
		lo[c.Class], hi[c.Class] = math.Min(lo[c.Class], pt.Speedup), math.Max(hi[c.Class], pt.Speedup)
	}
	ideal := num(float64(top) / float64(p.Ref))
	var hs []Headline
	for _, cl := range classes {
		v := "n/a"
		if !math.IsInf(lo[cl], 0) {
			v = spanText(lo[cl], hi[cl])
		}
		hs = append(hs, Headline{Label: fmt.Sprintf("%s: speedup at p=%d", cl, top), Value: v,
			Note: fmt.Sprintf("against p=%d, ideal %s; %s", p.Ref, ideal, strings.Join(byClass[cl], ", "))})
	}
	return hs
}

// batchesHeadline is the range of hash batches over the memory sweep, or
// the temporary-file use where the engine reports no batches.
func batchesHeadline(p *results.SpeedupPart, engine string) Headline {
	lo, hi := partRange(p)
	where := fmt.Sprintf("p=%d, join memory %s down to %s", p.P, sizeText(hi), sizeText(lo))
	bLo, bHi, tHi := math.MaxInt, -1, int64(-1)
	for _, c := range p.Curves {
		for _, x := range p.Values {
			if pt := curvePoint(c, x); pt != nil {
				if pt.HashBatches >= 0 {
					bLo, bHi = min(bLo, pt.HashBatches), max(bHi, pt.HashBatches)
				}
				tHi = max(tHi, pt.TempBytes)
			}
		}
	}
	switch {
	case bHi >= 0:
		v := strconv.Itoa(bLo)
		if bHi != bLo {
			v += " to " + strconv.Itoa(bHi)
		}
		return Headline{Label: "hash batches, memory sweep", Value: v, Note: where}
	case tHi > 0:
		return Headline{Label: "temporary files, memory sweep", Value: "up to " + sizeText(tHi), Note: engine + " reports no hash batches; " + where}
	case tHi == 0:
		return Headline{Label: "temporary files, memory sweep", Value: "none", Note: engine + " reports no hash batches and wrote no temporary file; " + where}
	}
	return Headline{Label: "hash batches, memory sweep", Value: "not reported", Note: engine + " says neither batches nor temporary-file use; " + where}
}

// pageTally counts, per page size, the queries it was fastest and slowest
// for, and the spread (slowest over fastest page size) per query.
type pageTally struct {
	best, worst        map[int64]int
	queries            int
	spreadLo, spreadHi float64
}

func tallyPages(p *results.SpeedupPart) pageTally {
	t := pageTally{best: map[int64]int{}, worst: map[int64]int{}, spreadLo: math.Inf(1), spreadHi: math.Inf(-1)}
	for _, c := range p.Curves {
		var bx, wx int64
		bt, wt := math.Inf(1), math.Inf(-1)
		for _, x := range p.Values {
			if pt := curvePoint(c, x); pt != nil && pt.MedianMS > 0 {
				if pt.MedianMS < bt {
					bx, bt = x, pt.MedianMS
				}
				if pt.MedianMS > wt {
					wx, wt = x, pt.MedianMS
				}
			}
		}
		if math.IsInf(bt, 0) {
			continue
		}
		t.queries++
		t.best[bx]++
		t.worst[wx]++
		t.spreadLo, t.spreadHi = math.Min(t.spreadLo, wt/bt), math.Max(t.spreadHi, wt/bt)
	}
	return t
}

// pagesByCount are the page sizes of counts, most queries first (smaller page
// first on a tie), as "16 KiB (7)".
func pagesByCount(counts map[int64]int) (sizes []int64) {
	for x := range counts {
		sizes = append(sizes, x)
	}
	sort.Slice(sizes, func(i, j int) bool {
		if counts[sizes[i]] != counts[sizes[j]] {
			return counts[sizes[i]] > counts[sizes[j]]
		}
		return sizes[i] < sizes[j]
	})
	return sizes
}

// pageSizeHeadlines are the page size most often fastest and the one most
// often slowest (ties named together).
func pageSizeHeadlines(p *results.SpeedupPart) []Headline {
	t := tallyPages(p)
	if t.queries == 0 {
		return []Headline{{Label: "page size", Value: "n/a", Note: "no query was measured"}}
	}
	head := func(label string, counts map[int64]int, what string) Headline {
		r := pagesByCount(counts)
		var tied []string
		for _, x := range r {
			if counts[x] == counts[r[0]] {
				tied = append(tied, sizeText(x))
			}
		}
		each := ""
		if len(tied) > 1 {
			each = " each"
		}
		return Headline{Label: label, Value: strings.Join(tied, " / "),
			Note: fmt.Sprintf("%s for %d of %d queries%s", what, counts[r[0]], t.queries, each)}
	}
	return []Headline{
		head("best page size", t.best, "fastest"),
		head("worst page size", t.worst, "slowest"),
	}
}
