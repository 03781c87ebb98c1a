package ui

import (
	"context"
	"encoding/json"

	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/browsertest"
	"github.com/dbgauge/dbgauge/internal/live"
)

// TestLiveInBrowser watches a running dsbench run in Chromium while the
// test writes the run's events, as the run would: the transaction count
// rises with them, the charts hold the rates, residence times, load and
// the sweep's points, a mark typed into the page is asked of the run and,
// once the run journals it, shows on the page; Stop asks the run to stop.
// Then the finished run is replayed through the same page and ends with
// the same figures. Every request the pages make stays on the test server.
func TestLiveInBrowser(t *testing.T) {
	dir := runsDir(t)
	w, runDir, stop := liveRun(t, dir)
	w.Emit(startEvent())
	w.Emit(live.Event{Kind: live.KindPhase, Time: at(0.5), Phase: "load", Scale: 1})
	w.Emit(rateEvent(1, 1, 1, 100, 100))
	srv := httptest.NewServer(newUI(t, Options{Dir: dir, Token: "s3cret"}))
	t.Cleanup(srv.Close)
	ctx := browsertest.Browser(t)
	var mu sync.Mutex
	var requested []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if r, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requested = append(requested, r.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	page := srv.URL + "/runs/" + runLive + "/live"
	if err := chromedp.Do(ctx, chromedp.Navigate(page+"?token=s3cret")); err != nil {
		t.Fatalf("the live page: %v", err)
	}
	until(t, ctx, "the first rate", `document.getElementById("committed").textContent === "100"`)
	if s := text(t, ctx, "#status"); s != "running" {
		t.Errorf("status %q, want running", s)
	}

	// The run goes on: a second, the first cycle's end, the second cycle,
	// the machine's load, and the first scale's point of the sweep.
	w.Emit(rateEvent(2, 1, 1, 210, 110))
	w.Emit(cycleEvent(2.1, 1, 1, 220))
	w.Emit(rateEvent(3, 1, 2, 90, 90))
	w.Emit(live.Event{Kind: live.KindLoad, Time: at(3), Load: &live.Load{CPUUser: 40, CPUSystem: 10, DiskWrite: 2e6, NetRx: 5e3}})
	w.Emit(live.Event{Kind: live.KindNodes, Time: at(3.5), Nodes: []live.Node{
		{Name: "node1", Status: "running", HeartbeatAge: 1500 * time.Millisecond, Committed: 120},
		{Name: "node2", Status: "lost", HeartbeatAge: 12 * time.Second}}})
	w.Emit(cycleEvent(4, 1, 2, 190))
	w.Emit(live.Event{Kind: live.KindScale, Time: at(4.1), Scale: 1, Rate: &live.Rate{TPS: 105, Committed: 410}})
	w.Emit(live.Event{Kind: live.KindPhase, Time: at(4.2), Phase: "populating", Scale: 10})
	w.Emit(live.Event{Kind: live.KindLine, Time: at(4.2), Text: "scale 10: populating"})
	until(t, ctx, "the rising count", `document.getElementById("committed").textContent === "410"`)
	var charts struct {
		Rate, Latency, CPU, Sweep [][]*float64
	}
	if err := json.Unmarshal(eval(t, ctx, `({rate: dbgaugeLive.charts.rate.data, latency: dbgaugeLive.charts.latency.data,
		cpu: dbgaugeLive.charts.cpu.data, sweep: dbgaugeLive.charts.sweep.data})`), &charts); err != nil {
		t.Fatal(err)
	}
	if got := series(charts.Rate, 1); !slices.Equal(got, []float64{100, 110, 90}) {
		t.Errorf("the rate chart holds %v tps, want 100 110 90", got)
	}
	if got := series(charts.Latency, 3); !slices.Equal(got, []float64{7, 7, 7}) {
		t.Errorf("the p99 series holds %v ms, want 7 7 7", got)
	}
	if got := series(charts.CPU, 1); !slices.Equal(got, []float64{40}) {
		t.Errorf("the CPU chart holds %v %%, want 40", got)
	}
	if x, y := series(charts.Sweep, 0), series(charts.Sweep, 1); !slices.Equal(x, []float64{1}) || !slices.Equal(y, []float64{105}) {
		t.Errorf("the sweep holds %v at scales %v, want 105 tps at scale 1", y, x)
	}
	// Hovering over the rate chart's last point reads it, with its unit.
	readOut := string(eval(t, ctx, `(() => { const u = dbgaugeLive.charts.rate, i = u.data[0].length - 1;
		u.setCursor({left: u.valToPos(u.data[0][i], "x"), top: u.valToPos(u.data[1][i], "y")});
		return document.querySelector("#chart-rate .u-legend").textContent; })()`))
	if !strings.Contains(readOut, "rate90 tps") || !strings.Contains(readOut, " UTC") {
		t.Errorf("hovering over the rate chart reads %s, want the time and 90 tps", readOut)
	}
	// Scale 10 is loading: its phase says so and no cycle of it has begun
	// (not the last scale's "2 of 2"); the errors are the whole run's,
	// the two cycles' one conflict each, as the failed count beside them.
	for sel, want := range map[string]string{"#phase": "loading scale 10", "#scale": "10 (2 of 2)", "#cycle": "–", "#failed": "2", "#log": "scale 10: populating", "#errors": "conflict\t2",
		"#node-rows": "node1\trunning\t1.5\t120\nnode2\tlost\t12\t0"} {
		if got := text(t, ctx, sel); got != want {
			t.Errorf("%s shows %q, want %q", sel, got, want)
		}
	}

	// A mark: typed and sent from the page, journalled by the run, shown.
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#control input[name="text"]`), "killed node 2"),
		chromedp.Click(chromedp.CSS(`#control button[value="mark"]`)),
	); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, "the mark's answer", `document.getElementById("answer").textContent.startsWith("asked the run to mark")`)
	w.Emit(live.Event{Kind: live.KindMark, Time: at(4.5), Text: "killed node 2"})
	w.Emit(rateEvent(5, 10, 1, 40, 40))
	until(t, ctx, "the mark on the page", `document.getElementById("mark-list").textContent.includes("killed node 2")`)
	if n := string(eval(t, ctx, `dbgaugeLive.state.marks.length`)); n != "1" {
		t.Errorf("%s marks drawn on the charts, want 1", n)
	}
	browsertest.Screenshot(t, ctx, "ui-live.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#control button[value="stop"]`))); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, "the stop's answer", `document.getElementById("answer").textContent.startsWith("asked the run to stop")`)
	asked := requests(t, runDir)
	if len(asked) != 2 || asked[0].Mark != "killed node 2" || !asked[1].Stop {
		t.Fatalf("the run was asked %+v, want the mark, then stop", asked)
	}

	// The run stops at the end of its cycle, as asked.
	w.Emit(cycleEvent(6, 10, 1, 60))
	w.Emit(live.Event{Kind: live.KindEnd, Time: at(6.1), End: &live.End{Error: "stopped at a viewer's request"}})
	stop()
	until(t, ctx, "the end", `document.getElementById("status").textContent === "failed: stopped at a viewer's request"`)
	until(t, ctx, "the buttons hidden", `document.getElementById("control").hidden`)
	final := text(t, ctx, "#committed")
	if final != "470" {
		t.Errorf("the page counts %s transactions at the end, want 470 (220 + 190 + 60)", final)
	}

	// Resumed, the run begins scale 10 again and is aborted in its first
	// cycle: results.json keeps scale 1's cycles only (scale 10's earlier
	// cycle was of a scale not finished, the cycle in flight is not
	// counted), and so does the page.
	resumed := startEvent()
	resumed.Time, resumed.Resumed = at(10), true
	w.Emit(resumed)
	w.Emit(rateEvent(11, 10, 1, 30, 30))
	until(t, ctx, "the resumed run's first rate", `document.getElementById("committed").textContent === "440"`)
	w.Emit(live.Event{Kind: live.KindEnd, Time: at(11.5), End: &live.End{Error: "interrupted"}})
	until(t, ctx, "the resumed run's end", `document.getElementById("status").textContent === "failed: interrupted"`)
	final = text(t, ctx, "#committed")
	if final != "410" {
		t.Errorf("the page counts %s transactions after the aborted resumed run, want 410 (220 + 190)", final)
	}

	// The same run replayed through the same page, fast.
	if err := chromedp.Do(ctx, chromedp.Navigate(page+"?replay=50")); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, "the replay's end", `document.getElementById("status").textContent === "failed: interrupted"`)
	if got := text(t, ctx, "#committed"); got != final {
		t.Errorf("the replay counts %s transactions, the live page %s", got, final)
	}
	if n := string(eval(t, ctx, `document.querySelectorAll("#control").length`)); n != "0" {
		t.Errorf("the replay has buttons")
	}
	browsertest.Screenshot(t, ctx, "ui-replay.png")

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requested {
		if !strings.HasPrefix(u, srv.URL+"/") {
			t.Errorf("the page fetched %s, off the test server", u)
		}
	}
	if !slices.Contains(requested, srv.URL+"/assets/uplot/uPlot.iife.min.js") {
		t.Errorf("uPlot was not loaded from the server: %v", requested)
	}
}

// until waits for a JavaScript condition in the page (a bound, not a
// measurement: Poll fails after 30 s).
func until(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s (%s): %v\nthe page: %s", what, cond, err, eval(t, ctx, `document.body.innerText`))
	}
}

// eval returns a JavaScript expression's value in the page, as JSON.
func eval(t *testing.T, ctx context.Context, expr string) json.RawMessage {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// text is an element's text.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// values are the numbers of one series of a uPlot data array, a null
// (no value) as -1, which no expected series holds.
func series(data [][]*float64, i int) []float64 {
	if i >= len(data) {
		return nil
	}
	var out []float64
	for _, v := range data[i] {
		if v == nil {
			out = append(out, -1)
			continue
		}
		out = append(out, *v)
	}
	return out
}
