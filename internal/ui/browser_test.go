package ui

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium is Debian's package, which make test installs: without it the
// browser test fails rather than skips.
const chromium = "/usr/bin/chromium"

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
	h := newUI(t, Options{Dir: dir, Token: "s3cret"})
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx := browser(t)

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
	shot(t, ctx, "ui-history.png")

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
	shot(t, ctx, "ui-compare.png")
}

// browser starts a headless Chromium for the test, ended with it. Nothing
// may be fetched from elsewhere: every name but the test server's address
// fails to resolve. The whole test is bounded (see chromedp.Run).
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("%v: install Debian's chromium package (make test does)", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	go func() {
		select {
		case <-time.After(2 * time.Minute):
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx
}

// shot saves a full-page screenshot as a test artifact.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("DBGAUGE_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}
