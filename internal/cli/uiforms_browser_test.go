package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
)

// TestFormInBrowser drives Chromium through the dsbench form as a person
// would: open it, type a negative duration, launch, and read on the form
// that comes back the very line the command line prints for it; no run
// starts and nothing is written.
// The screenshot is kept as an artifact (ui-form-bad-input.png).
func TestFormInBrowser(t *testing.T) {
	_, _, stderr := run("dsbench", "--duration", "-1s")
	line := strings.TrimSpace(stderr)
	if !strings.HasPrefix(line, "dbgauge: --duration") {
		t.Fatalf("the command line says %q", line)
	}
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx := browsertest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/new"), chromedp.WaitVisible(chromedp.CSS(`table`))); err != nil {
		t.Fatalf("the list of experiments: %v", err)
	}
	browsertest.Screenshot(t, ctx, "ui-new.png")

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
	browsertest.Screenshot(t, ctx, "ui-form-bad-input.png")
	if n := len(h.Jobs()); n != 0 {
		t.Errorf("%d runs started", n)
	}
	if left := entries(t, dir); len(left) != 0 {
		t.Errorf("the refused form wrote %v", left)
	}
}
