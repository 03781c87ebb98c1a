package htmlreport

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The engines' diagram: per query a group of horizontal bars, one per
// engine in its own colour, the median time at each bar's end. Bars (in
// svgbars.go) draws one series; this draws several on the same axis
// (newBarAxis) and layout, so that the two diagrams look alike. Every bar
// is a <rect> with its value in data-value and a <title>.

// engineColours tell the engines apart: the Okabe-Ito palette, whose
// colours stay distinct for the common kinds of colour blindness.
var engineColours = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000"}

// groupedBarH is the height of one engine's bar inside a query's group.
const groupedBarH = 9.0

// diagramSVG draws the medians of rows (the view's rows of one size);
// nothing when no engine answered.
func (v *engineView) diagramSVG(title string, rows []engineRow) (template.HTML, bool) {
	var values []float64
	labelW := 0.0
	for _, row := range rows {
		labelW = math.Max(labelW, float64(utf8.RuneCountInString(row.label))*barsCharW)
		for _, c := range row.cells {
			if c.ok {
				values = append(values, c.ms)
			}
		}
	}
	if len(values) == 0 {
		return "", false
	}
	log := LogScaleFits(values)
	axis := "median elapsed time [ms]"
	if log {
		axis += ", log scale"
	}
	labelW = math.Min(labelW+barsPadding, barsWidth/3)
	x0, x1 := labelW+barsPadding, barsWidth-barsTextW
	ax := newBarAxis(values, log)
	n := float64(len(v.engines))
	groupH := n*groupedBarH + 6
	legendH := 20.0
	top := barsTitleH + legendH
	bottom := top + float64(len(rows))*groupH
	height := bottom + barsAxisH

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" font-family="sans-serif" font-size="12" role="img">`,
		f1(barsWidth), f1(height), f1(barsWidth), f1(height))
	fmt.Fprintf(&b, `<text x="%s" y="17" font-size="14" font-weight="bold">%s</text>`, f1(barsPadding), esc(title))
	// the legend: one swatch per engine
	x := x0
	for j, e := range v.engines {
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="12" height="12" fill="%s"/><text x="%s" y="%s">%s</text>`,
			f1(x), f1(barsTitleH+2), engineColour(j), f1(x+16), f1(barsTitleH+12), esc(e.label))
		x += 16 + float64(utf8.RuneCountInString(e.label))*barsCharW + 20
	}
	for i := 1; i < len(rows); i += 2 {
		// every other group shaded, under the grid and the bars, so that a
		// group's bars read together
		fmt.Fprintf(&b, `<rect x="0" y="%s" width="%s" height="%s" fill="#f5f5f5"/>`, f1(top+float64(i)*groupH), f1(barsWidth), f1(groupH))
	}
	for _, t := range ax.ticks {
		tx := x0 + ax.pos(t)*(x1-x0)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`, f1(tx), f1(top), f1(tx), f1(bottom))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#333">%s</text>`, f1(tx), f1(bottom+14), esc(num(t)))
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#888"/>`, f1(x0), f1(top), f1(x0), f1(bottom))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#333">%s</text>`, f1((x0+x1)/2), f1(bottom+32), esc(axis))
	for i, row := range rows {
		y := top + float64(i)*groupH
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, f1(labelW), f1(y+groupH/2+4), esc(row.label))
		for j, c := range row.cells {
			by := y + 3 + float64(j)*groupedBarH
			tip := fmt.Sprintf("%s, %s: ", row.label, v.engines[j].label)
			end := x0
			text := c.text
			b.WriteString(`<g>`)
			if c.ok {
				w := math.Max(ax.pos(c.ms)*(x1-x0), 1)
				end = x0 + w
				text = num(c.ms) + " ms"
				fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" data-value="%s"><title>%s</title></rect>`,
					f1(x0), f1(by), f1(w), f1(groupedBarH-1), engineColour(j), strconv.FormatFloat(c.ms, 'g', -1, 64), esc(tip+c.title))
			} else {
				fmt.Fprintf(&b, `<title>%s</title>`, esc(tip+c.title))
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="9" fill="#333">%s</text></g>`, f1(end+3), f1(by+groupedBarH-1.5), esc(text))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()), true
}

func engineColour(j int) string { return engineColours[j%len(engineColours)] }
