package cli

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/report/browser"
)

// TestFormInBrowser drives Chromium through the dsbench form as a person
// would: open it, type a negative duration, launch, and read on the form
// that comes back the very line the command line prints for it; no run
// starts and nothing is written.
// The screenshot is kept as an artifact (ui-form-bad-input.png).
func TestFormInBrowser(t *testing.T) {
	chromium, err := browser.Binary()
	if err != nil {
		t.Fatal(err) // make test installs it: its absence is a failure, not a skip
	}
	_, _, stderr := run("dsbench", "--duration", "-1s")
	line := strings.TrimSpace(stderr)
	if !strings.HasPrefix(line, "dbgauge: --duration") {
		t.Fatalf("the command line says %q", line)
	}
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx := newBrowser(t, chromium)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/new"), chromedp.WaitVisible(chromedp.CSS(`table`))); err != nil {
		t.Fatalf("the list of experiments: %v", err)
	}
	screenshot(t, ctx, "ui-new.png")

	duration := chromedp.CSS(`input[name="flag.duration"]`)
	problem := chromedp.CSS(`#problem`)
	// As the field changes, the page asks the server and shows the
	// command line's answer before anything is sent.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/new/dsbench"),
		chromedp.WaitVisible(chromedp.CSS(`#launch`)),
		chromedp.Clear(duration),
		chromedp.SendKeys(duration, "-1s"),
		chromedp.WaitVisible(problem),
	); err != nil {
		t.Fatalf("the form: %v", err)
	}
	if live, err := chromedp.Run(ctx, chromedp.Text(problem)); err != nil || live != line {
		t.Errorf("as typed, the form shows %q (%v), the command line %q", live, err, line)
	}
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#launch`)))
	if err != nil {
		t.Fatalf("launching: %v", err)
	}
	if resp.Status != 400 {
		t.Errorf("launching refused values: status %d, want 400", resp.Status)
	}
	where, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.HasSuffix(where, "/new/dsbench") {
		t.Errorf("after launching the page is %s (%v), want the form again", where, err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Text(problem))
	if err != nil {
		t.Fatal(err)
	}
	command, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#command`)))
	if err != nil {
		t.Fatal(err)
	}
	if shown != line {
		t.Errorf("the form shows %q, the command line %q", shown, line)
	}
	if command != "dbgauge dsbench --duration=-1s" {
		t.Errorf("the command shown is %q", command)
	}
	screenshot(t, ctx, "ui-form-bad-input.png")
	if n := len(h.Jobs()); n != 0 {
		t.Errorf("%d runs started", n)
	}
	if left := entries(t, dir); len(left) != 0 {
		t.Errorf("the refused form wrote %v", left)
	}
}

// newBrowser is a headless Chromium that resolves no name but the test
// server's address, closed when the test ends; a bound on its use.
func newBrowser(t *testing.T, chromium string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	return ctx
}

// screenshot saves the page the browser shows as the artifact name.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	saveArtifact(t, name, png)
}
