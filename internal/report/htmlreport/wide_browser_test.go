package htmlreport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
)

// clippedTables lists the tables of the page in view wider than their box
// where the box does not scroll (their right part cut off), and says
// whether the page itself is wider than the window.
const clippedTables = `(() => {
	const out = [];
	document.querySelectorAll('.tablewrap').forEach((w, i) => {
		const s = getComputedStyle(w);
		if (w.scrollWidth > w.clientWidth + 1 && !(s.overflowX == 'auto' || s.overflowX == 'scroll')) out.push('table ' + i + ' cut: ' + w.scrollWidth + ' > ' + w.clientWidth);
		if (w.scrollWidth > w.clientWidth + 1 && (s.overflowX == 'auto' || s.overflowX == 'scroll') && matchMedia('print').matches) out.push('table ' + i + ' needs scrolling on paper: ' + w.scrollWidth + ' > ' + w.clientWidth);
	});
	if (document.documentElement.scrollWidth > innerWidth + 1) out.push('page ' + document.documentElement.scrollWidth + ' wider than ' + innerWidth);
	return out;
})()`

// The widest tables the reports hold (a sweep's 23 columns, the agents
// with their events, the Wisconsin tables): on screen a table wider than
// the window scrolls sideways in its box and one that fits the window is
// not held to the prose's column; on paper, where nothing scrolls, every
// table wraps its cells to the page instead of losing its right part.
func TestWideTablesNotCut(t *testing.T) {
	ctx := browsertest.Browser(t)
	for _, name := range []string{"dsbench", "dsbench_nodes", "wisconsin", "speedup", "abtest", "qac"} {
		b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".html.golden"))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), name+".html")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Navigate("file://"+file)); err != nil {
			t.Fatal(err)
		}
		for _, media := range []string{"screen", "print"} {
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media}); err != nil {
				t.Fatal(err)
			}
			bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](clippedTables))
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bad {
				t.Errorf("%s on %s: %s", name, media, b)
			}
		}
		if name == "wisconsin" {
			// its widest table (about 1230 px) fits a 1280 px window whole
			fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll('.tablewrap')].every(w => w.scrollWidth <= w.clientWidth + 1)`))
			if err != nil {
				t.Fatal(err)
			}
			if !fits {
				t.Errorf("wisconsin: a table that fits a 1280 px window scrolls in the prose's column")
			}
		}
	}
}
