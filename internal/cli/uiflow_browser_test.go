package cli

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
	"github.com/dbgauge/dbgauge/internal/results"
)

// TestUIFlowInBrowser is a new user's way through the web interface, in
// Chromium: the dsbench form launches a short SQLite sweep, its live page
// shows the transaction count rising while it runs and, once it has
// finished, the very total its results.json holds; a second run is
// launched the same way; both appear in the history, and ticking them
// opens the compare page. A screenshot of each page is kept as an
// artifact (ui-flow-*.png).
func TestUIFlowInBrowser(t *testing.T) {
	h, dir := formUI(t, dbgaugeBinary(t), false)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := browsertest.Browser(t) // bounded; the sweeps take seconds

	first := launchInBrowser(t, ctx, srv.URL)
	seen := watchCount(t, ctx)
	if len(seen) < 3 {
		t.Errorf("the live page showed the count %v while the run went: want it rising through at least 3 values", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] <= seen[i-1] {
			t.Errorf("the live page's count went from %d to %d", seen[i-1], seen[i])
		}
	}
	browsertest.Screenshot(t, ctx, "ui-flow-live.png")
	res := readJSON[results.DSBenchResults](t, filepath.Join(dir, first, "results.json"))
	var total int64
	for _, s := range res.Scales {
		total += s.Transactions
	}
	if !res.Complete || len(res.Scales) != 2 {
		t.Fatalf("the launched run: complete %v, %d scales (error %q)", res.Complete, len(res.Scales), res.Error)
	}
	if shown := pageCount(t, ctx); shown != total {
		t.Errorf("the finished run's live page shows %d transactions, its results.json %d", shown, total)
	}

	second := launchInBrowser(t, ctx, srv.URL)
	watchCount(t, ctx)

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#compare`))); err != nil {
		t.Fatalf("the history: %v", err)
	}
	for _, run := range []string{first, second} {
		box := chromedp.CSS(`input[name="run"][value="` + run + `"]`)
		if err := chromedp.Do(ctx, chromedp.Click(box)); err != nil {
			t.Fatalf("the history has no box to tick for %s: %v", run, err)
		}
	}
	browsertest.Screenshot(t, ctx, "ui-flow-history.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#compare button[type="submit"]`))); err != nil {
		t.Fatalf("comparing: %v", err)
	}
	// The history has an h1 too: wait for the compare page itself, read
	// by script (no node of the page being left is kept).
	var body string
	for {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[location.pathname, document.readyState, document.body ? document.body.innerText : ""]`))
		if err != nil || len(v) != 3 {
			t.Fatalf("the compare page: %v %v", v, err)
		}
		if v[0] == "/compare" && v[1] == "complete" {
			body = v[2]
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range []string{"Comparison: 2 "} {
		if !strings.Contains(body, want) {
			t.Errorf("the compare page does not show %q:\n%.600s", want, body)
		}
	}
	browsertest.Screenshot(t, ctx, "ui-flow-compare.png")
}

// launchInBrowser fills the dsbench form with a short SQLite sweep (two
// scales of two 2-second cycles), launches it and returns its run
// directory, read from the live page the browser was sent on to.
func launchInBrowser(t *testing.T, ctx context.Context, base string) string {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(base + "/new/dsbench"), chromedp.WaitVisible(chromedp.CSS(`#launch`))}
	for _, fv := range [][2]string{{"scales", "1,2"}, {"cycles", "2"}, {"duration", "2s"}, {"threads", "2"}} {
		f := chromedp.CSS(`[name="flag.` + fv[0] + `"]`)
		steps = append(steps, chromedp.Clear(f), chromedp.SendKeys(f, fv[1]))
	}
	if err := chromedp.Do(ctx, append(steps,
		chromedp.Click(chromedp.CSS(`#launch`)),
		chromedp.WaitVisible(chromedp.CSS(`#committed`)))...,
	); err != nil {
		t.Fatalf("launching from the form: %v", err)
	}
	where, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	m := launchedRun("dsbench").FindStringSubmatch(strings.TrimPrefix(where, base))
	if m == nil {
		t.Fatalf("after launching the browser is at %s, not a run's live page", where)
	}
	return m[1]
}

// watchCount reads the live page's transaction count until the page says
// the run has ended, and returns the counts it saw while the run was
// going, each once. It reads the page by script, not by node: a node
// looked up while the page loads can be gone by the time it is read.
func watchCount(t *testing.T, ctx context.Context) []int64 {
	t.Helper()
	var seen []int64
	for {
		status, n := liveFigures(t, ctx)
		if strings.HasPrefix(status, "finished") || strings.HasPrefix(status, "failed") {
			if status != "finished complete" {
				t.Fatalf("the run ended: %s", status)
			}
			return seen
		}
		if n > 0 && (len(seen) == 0 || n != seen[len(seen)-1]) {
			seen = append(seen, n)
		}
		time.Sleep(200 * time.Millisecond) // the page redraws once a second
	}
}

// pageCount is the live page's count of committed transactions.
func pageCount(t *testing.T, ctx context.Context) int64 {
	t.Helper()
	_, n := liveFigures(t, ctx)
	return n
}

// liveFigures are the live page's status and its count of committed
// transactions ("" and 0 while the page is not the live page yet).
func liveFigures(t *testing.T, ctx context.Context) (string, int64) {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`["status", "committed"].map((id) => (document.getElementById(id) || {}).textContent || "")`))
	if err != nil || len(v) != 2 {
		t.Fatalf("the live page's figures: %v %v", v, err)
	}
	if v[1] == "" {
		return v[0], 0
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(v[1], ",", ""), 10, 64)
	if err != nil {
		t.Fatalf("the live page's count %q: %v", v[1], err)
	}
	return v[0], n
}
