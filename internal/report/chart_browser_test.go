package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/report/browser"
)

// textsOutside runs in the page: every text of every chart that the SVG's
// box cuts (an inline SVG hides what lies outside it), with by how much.
const textsOutside = `[...document.querySelectorAll('div[id]')].flatMap(d => {
	const s = d.querySelector('svg').getBoundingClientRect();
	return [...d.querySelectorAll('text')].map(t => {
		const b = t.getBoundingClientRect();
		return {chart: d.id, text: t.textContent,
			over: Math.max(s.left - b.left, b.right - s.right, s.top - b.top, b.bottom - s.bottom)};
	}).filter(x => x.over > 0.5);
})`

// TestChartsFitInBrowser draws the fixture charts' SVGs in Chromium, the
// way the HTML report shows them, with the browser's own fonts: no text,
// legend labels included, reaches past its chart's edge (the legend that
// cut "primary key [s]" to "primary key [" was sized with the fonts the
// SVG names, not with the one the browser drew).
func TestChartsFitInBrowser(t *testing.T) {
	if _, err := browser.Binary(); err != nil {
		t.Fatal(err) // make test installs it: its absence is a failure, not a skip
	}
	var page bytes.Buffer
	page.WriteString("<!doctype html><html><body>\n")
	n := 0
	for i, c := range fixtureCharts(t) {
		if len(c.svg) == 0 {
			continue
		}
		fmt.Fprintf(&page, "<div id=\"%02d_%s\">%s</div>\n", i, c.name, stripXMLHeader(c.svg))
		n++
	}
	page.WriteString("</body></html>\n")
	if n < 25 {
		t.Fatalf("%d SVG charts, want 25 or more", n)
	}
	path := filepath.Join(t.TempDir(), "charts.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := browser.Open(context.Background(), path, textsOutside)
	if err != nil {
		t.Fatal(err)
	}
	// CHART_DIR=/some/dir keeps the page's screenshot to look at it
	if dir := os.Getenv("CHART_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "browser.png"), res.Screenshot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cut []struct {
		Chart, Text string
		Over        float64
	}
	if err := json.Unmarshal(res.Value, &cut); err != nil {
		t.Fatalf("%v: %s", err, res.Value)
	}
	for _, c := range cut {
		t.Errorf("%s: %q reaches %.1f px past the chart's edge", c.Chart, c.Text, c.Over)
	}
}

// stripXMLHeader drops the <?xml ...?> line, which has no place in HTML.
func stripXMLHeader(svg []byte) []byte {
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		return svg[i:]
	}
	return svg
}
