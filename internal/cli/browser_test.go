package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			saveArtifact(t, "quickstart-report.png", res.Screenshot)
		}
	}
}

func saveArtifact(t *testing.T, name string, b []byte) {
	dir := os.Getenv("DBGAUGE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	t.Logf("screenshot: %s (%d bytes)", abs, len(b))
}
