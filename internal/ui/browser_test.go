package ui

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
)

// TestHistoryInBrowser drives Chromium through the interface as a person
// would: open the address with its token, see the two stored runs in the
// history, tick both, submit, and land on the compare page, which names
// both runs. Screenshots of both pages are kept in $DBGAUGE_ARTIFACTS
// (or the test's temporary directory).
func TestHistoryInBrowser(t *testing.T) {
	dir := runsDir(t)
	if err := os.RemoveAll(filepath.Join(dir, runDS)); err != nil {
		t.Fatal(err)
	}
	tagRuns(t, dir, map[string][]string{runA: {"nightly"}})
	h := newUI(t, Options{Dir: dir, Token: "s3cret"})
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx := browsertest.Browser(t)

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?token=s3cret"), chromedp.WaitVisible(chromedp.CSS("#compare table"))); err != nil {
		t.Fatalf("the history page: %v", err)
	}
	history, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{runA, runB, "2 of 2 runs", "geomean of 32 query medians"} {
		if !strings.Contains(history, want) {
			t.Errorf("the history page does not show %q:\n%s", want, history)
		}
	}
	browsertest.Screenshot(t, ctx, "ui-history.png")

	// A run's tag is a link to the runs that carry it; the tag filter
	// then shows it chosen.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.tag`)), chromedp.WaitVisible(chromedp.CSS("#compare table"))); err != nil {
		t.Fatalf("following the tag: %v", err)
	}
	tagged, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	chosen, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`select[name="tag"]`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tagged, "1 of 2 runs") || !strings.Contains(tagged, runA) || strings.Contains(tagged, runB) || chosen != "nightly" {
		t.Errorf("the tag nightly lists otherwise than runA alone (tag filter %q):\n%s", chosen, tagged)
	}
	browsertest.Screenshot(t, ctx, "ui-history-tag.png")
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#compare table"))); err != nil {
		t.Fatalf("back to every run: %v", err)
	}

	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`input[value="`+runB+`"]`)),
		chromedp.Click(chromedp.CSS(`input[value="`+runA+`"]`)),
	); err != nil {
		t.Fatalf("ticking the runs: %v", err)
	}
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#compare button[type="submit"]`)))
	if err != nil {
		t.Fatalf("submitting: %v", err)
	}
	if resp.Status != 200 {
		t.Errorf("the compare page: status %d", resp.Status)
	}
	where, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(where, "/compare?run="+runA+"&run="+runB) {
		t.Errorf("the form went to %s", where)
	}
	page, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Comparison: 2 Wisconsin benchmark runs", runA, runB} {
		if !strings.Contains(page, want) {
			t.Errorf("the compare page does not show %q:\n%.3000s", want, page)
		}
	}
	browsertest.Screenshot(t, ctx, "ui-compare.png")
}
