package ui

import (
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
	"github.com/dbgauge/dbgauge/internal/live"
)

// TestLiveTypesInBrowser: a run of two transaction types shows per type
// its commits over the whole run (the finished cycle's and the running
// one's so far) and its rate over the last second; the table stays hidden
// until an event carries types, as it does for a workload of one type.
func TestLiveTypesInBrowser(t *testing.T) {
	dir := runsDir(t)
	w, _, _ := liveRun(t, dir)
	w.Emit(startEvent())
	w.Emit(rateEvent(1, 1, 1, 100, 100))
	srv := httptest.NewServer(newUI(t, Options{Dir: dir, Token: "s3cret"}))
	t.Cleanup(srv.Close)
	ctx := browsertest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/runs/"+runLive+"/live?token=s3cret")); err != nil {
		t.Fatalf("the live page: %v", err)
	}
	until(t, ctx, "the first rate", `document.getElementById("committed").textContent === "100"`)
	if hidden := string(eval(t, ctx, `document.getElementById("types").hidden`)); hidden != "true" {
		t.Errorf("the types table shows before any event has types (hidden %s)", hidden)
	}
	types := func(a, b int64, ta, tb float64) []live.TypeRate {
		return []live.TypeRate{{Name: "order", Committed: a, TPS: ta}, {Name: "audit", Committed: b, TPS: tb}}
	}
	c := cycleEvent(2, 1, 1, 400)
	c.Rate.Types = types(300, 100, 150, 50)
	w.Emit(c)
	r := rateEvent(3, 1, 2, 40, 40)
	r.Rate.Types = types(30, 10, 30, 10)
	w.Emit(r)
	until(t, ctx, "the second cycle's count", `document.getElementById("committed").textContent === "440"`)
	until(t, ctx, "the types table", `!document.getElementById("types").hidden`)
	if got, want := text(t, ctx, "#type-rows"), "order\t30\t330\naudit\t10\t110"; got != want {
		t.Errorf("#type-rows shows %q, want %q", got, want)
	}
}
