package htmlreport_test

// Helpers of the page tests of the IDM and Gamma experiments (multiuser,
// sizesweep, abtest, speedup). They live in the external test package so
// that a test may run an experiment (internal/experiment) on a real
// embedded engine and read its run directory back as a user would.

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
)

// page reads dir back: its Doc (for the numbers) and its rendered page,
// which must be self-contained.
func page(t *testing.T, dir string) (*htmlreport.Doc, string) {
	t.Helper()
	r, err := htmlreport.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Doc()
	if err != nil {
		t.Fatal(err)
	}
	b, err := htmlreport.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	checkSelfContained(t, html)
	return d, html
}

// checkSelfContained fails on anything that could fetch: a URL other than
// the SVG namespaces, a script, a stylesheet link, an image.
func checkSelfContained(t *testing.T, html string) {
	t.Helper()
	s := strings.ReplaceAll(html, `xmlns="http://www.w3.org/2000/svg"`, "")
	s = strings.ReplaceAll(s, `xmlns:xlink="http://www.w3.org/1999/xlink"`, "")
	for _, bad := range []string{"http://", "https://", "<script", "<link", "<img", "@import"} {
		if i := strings.Index(s, bad); i >= 0 {
			t.Errorf("page holds %q: ...%s...", bad, s[max(0, i-80):min(len(s), i+80)])
		}
	}
}

// headlineOf is the summary's headline with this label.
func headlineOf(t *testing.T, d *htmlreport.Doc, label string) htmlreport.Headline {
	t.Helper()
	var labels []string
	for _, h := range d.Summary {
		if h.Label == label {
			return h
		}
		labels = append(labels, h.Label)
	}
	t.Fatalf("no headline %q; the summary has %q", label, labels)
	return htmlreport.Headline{}
}

// sectionOf is the page's section with this id.
func sectionOf(t *testing.T, d *htmlreport.Doc, id string) htmlreport.Section {
	t.Helper()
	for _, s := range d.Sections {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no section %q", id)
	return htmlreport.Section{}
}

// checkDiagram finds the diagram of section id in the page: an inline
// <svg> right inside its figure, with drawn paths (axes, curves) and the
// texts given (legend entries, tick labels) that only data put there.
func checkDiagram(t *testing.T, html, id string, texts ...string) {
	t.Helper()
	i := strings.Index(html, `<h2 id="`+id+`">`)
	if i < 0 {
		t.Fatalf("no diagram %q on the page", id)
	}
	fig := html[i:]
	if j := strings.Index(fig, "</figure>"); j >= 0 {
		fig = fig[:j]
	}
	if !strings.Contains(fig, "<figure><svg") || !strings.Contains(fig, "</svg>") {
		t.Fatalf("diagram %q is not an inline svg: %.300s", id, fig)
	}
	if n := strings.Count(fig, "<path"); n < 10 {
		t.Errorf("diagram %q has %d paths: no data drawn", id, n)
	}
	for _, s := range texts {
		if !strings.Contains(fig, s) {
			t.Errorf("diagram %q lacks %q", id, s)
		}
	}
}

var number = regexp.MustCompile(`[-+]?[0-9]*\.?[0-9]+`)

// numbers are the numbers written in s, in order.
func numbers(s string) []float64 {
	var out []float64
	for _, m := range number.FindAllString(s, -1) {
		if v, err := strconv.ParseFloat(m, 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// near checks that got, a number written to three significant digits (or
// to tol where tol > 0), is want.
func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if tol == 0 {
		tol = 0.0051 * math.Abs(want)
	}
	if math.Abs(got-want) > tol+1e-12 {
		t.Errorf("%s: page says %v, results.json %v", what, got, want)
	}
}

// firstNumber is the first number written in s.
func firstNumber(t *testing.T, s string) float64 {
	t.Helper()
	ns := numbers(s)
	if len(ns) == 0 {
		t.Fatalf("no number in %q", s)
	}
	return ns[0]
}

// mentions says whether a number near want (three significant digits) is
// written in s.
func mentions(s string, want float64) bool {
	for _, v := range numbers(s) {
		if math.Abs(v-want) <= 0.0051*math.Abs(want)+1e-12 {
			return true
		}
	}
	return false
}

// warned says whether a warning of d contains all of subs.
func warned(d *htmlreport.Doc, subs ...string) bool {
	for _, w := range d.Warnings {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(w, s)
		}
		if all {
			return true
		}
	}
	return false
}

// copyRun copies the files of run directory dir into a new one, to edit.
func copyRun(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// editJSON rewrites the JSON file path through edit.
func editJSON[T any](t *testing.T, path string, edit func(*T)) {
	t.Helper()
	v := readJSON[T](t, path)
	edit(v)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readJSON decodes the JSON file path.
func readJSON[T any](t *testing.T, path string) *T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}
