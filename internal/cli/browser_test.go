package cli

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/browsertest"
	"github.com/dbgauge/dbgauge/internal/report/browser"
)

// diagramCheck runs in the page: every inline SVG with its rendered size
// and the number of its drawn elements (paths, bars, marks, labels).
const diagramCheck = `[...document.querySelectorAll('svg')].map(s => {
	const r = s.getBoundingClientRect();
	const h = s.closest('[id]');
	return {where: h ? h.id : '', width: r.width, height: r.height,
		shapes: s.querySelectorAll('path,rect,circle,line,polyline,polygon').length};
})`

// TestQuickstartReportInBrowser runs quickstart, opens its report in
// headless Chromium and checks that every diagram rendered with data and
// that no request left the machine. The screenshot is kept as an
// artifact (artifacts/ at the repository root, or $DBGAUGE_ARTIFACTS).
func TestQuickstartReportInBrowser(t *testing.T) {
	if _, err := browser.Binary(); err != nil {
		t.Fatal(err) // make test installs it: its absence is a failure, not a skip
	}
	out := filepath.Join(t.TempDir(), "qs")
	code, stdout, stderr := run("quickstart", "--size", "1000", "--reps", "2", "--out", out)
	if code != 0 {
		t.Fatalf("quickstart: exit %d\n%s\n%s", code, stdout, stderr)
	}
	page := filepath.Join(out, "report.html")
	if !strings.Contains(stdout, "report: "+page) {
		t.Errorf("quickstart does not print the report's path:\n%s", stdout)
	}
	pages := []string{page, filepath.Join(out, "sqlite", "run", "report.html"), filepath.Join(out, "duckdb", "run", "report.html")}
	for i, p := range pages {
		res, err := browser.Open(context.Background(), p, diagramCheck)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, u := range res.Requests {
			if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				t.Errorf("%s: a request left the machine: %s", p, u)
			}
		}
		for _, e := range res.Errors {
			t.Errorf("%s: console error: %s", p, e)
		}
		var svgs []struct {
			Where         string
			Width, Height float64
			Shapes        int
		}
		if err := json.Unmarshal(res.Value, &svgs); err != nil {
			t.Fatalf("%s: %v: %s", p, err, res.Value)
		}
		if len(svgs) == 0 {
			t.Errorf("%s: no diagram", p)
		}
		for _, s := range svgs {
			if s.Width < 100 || s.Height < 50 || s.Shapes < 3 {
				t.Errorf("%s: the diagram in %q did not render with data: %.0fx%.0f px, %d shapes", p, s.Where, s.Width, s.Height, s.Shapes)
			}
		}
		if i == 0 {
			browsertest.SaveArtifact(t, "quickstart-report.png", res.Screenshot)
		}
	}
	checkSelection(t, page)
	checkLinksElsewhere(t, out)
}

// checkLinksElsewhere writes the quickstart page of out somewhere else
// with --html: its links to each engine's files resolve from there.
func checkLinksElsewhere(t *testing.T, out string) {
	page := filepath.Join(t.TempDir(), "pages", "qs.html")
	if code, _, stderr := run("report", out, "--html", page); code != 0 {
		t.Fatalf("report --html: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`href="([^"#][^"]*)"`).FindAllStringSubmatch(string(b), -1)
	if len(links) < 6 {
		t.Fatalf("%d links on the page, want each engine's report, results and tables", len(links))
	}
	for _, l := range links {
		target := filepath.Join(filepath.Dir(page), filepath.FromSlash(html.UnescapeString(l[1])))
		if _, err := os.Stat(target); err != nil {
			t.Errorf("link %s does not resolve from %s", l[1], page)
		}
	}
}

// selectionCheck unticks the second engine in the engines view and reads
// the summary before and after: the script recomputes it in the page.
const selectionCheck = `(() => {
	const row = e => document.querySelector('#engines-summary tr[data-engine="' + e + '"]');
	const before = [row(0).querySelector('.rel').textContent, row(1).querySelector('.rel').textContent];
	const box = document.querySelector('input.engines-e[data-engine="1"]');
	box.checked = false;
	box.dispatchEvent(new Event('change'));
	return {before: before, first: row(0).querySelector('.rel').textContent, second: row(1).querySelector('.ans').textContent,
		controls: !document.getElementById('engines-controls').hidden};
})()`

// checkSelection runs selectionCheck on the engines page: with one engine
// left, it is the fastest of those selected (x1.00), and the other says
// it is not selected.
func checkSelection(t *testing.T, page string) {
	res, err := browser.Open(context.Background(), page, selectionCheck)
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	var got struct {
		Before        []string
		First, Second string
		Controls      bool
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatalf("%s: %v: %s", page, err, res.Value)
	}
	if !got.Controls || got.First != "\u00d71.00" || got.Second != "not selected" || len(got.Before) != 2 {
		t.Errorf("%s: unticking an engine did not recompute the summary: %+v", page, got)
	}
}
