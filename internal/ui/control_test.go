package ui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/live"
)

// post sends a form to h with the headers given in pairs.
func post(h http.Handler, target string, form url.Values, hdr ...string) (int, string) {
	r := httptest.NewRequest("POST", target, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}

// requests are the requests written into the run in dir.
func requests(t *testing.T, dir string) []live.Request {
	t.Helper()
	rs, _, err := live.ReadRequests(filepath.Join(dir, live.ControlFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// signed is form with the secret of h's forms, as its pages send it.
func signed(h http.Handler, form url.Values) url.Values {
	out := url.Values{"csrf": {h.(*Handler).csrf}}
	for k, v := range form {
		out[k] = v
	}
	return out
}

func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// TestControlWritesRequests checks that the buttons' requests reach a
// running run's control.jsonl, one each, as the run reads them, and that
// a bad one writes nothing and says what to send.
func TestControlWritesRequests(t *testing.T) {
	dir := runsDir(t)
	w, runDir, _ := liveRun(t, dir)
	w.Emit(startEvent())
	h := newUI(t, Options{Dir: dir})
	target := "/runs/" + runLive + "/control"
	for _, c := range []struct {
		form  url.Values
		code  int
		reply string
	}{
		{form("action", "mark", "text", " killed node 2 "), 200, `asked the run to mark "killed node 2"`},
		{form("action", "stop"), 200, "asked the run to stop at the end of the cycle in flight"},
		{form("action", "abort"), 200, "asked the run to abort now"},
		{form("action", "pause"), 400, `action="pause": give action=stop, abort or mark`},
		{form("action", "mark", "text", "  "), 400, "text: give the mark one line of 1 to 200 characters, e.g. killed node 2"},
		{form("action", "mark", "text", strings.Repeat("x", 201)), 400, "text: give the mark one line"},
	} {
		code, body := post(h, target, signed(h, c.form))
		if code != c.code || !strings.HasPrefix(body, c.reply) || strings.Count(body, "\n") != 1 {
			t.Errorf("%v: status %d %q, want %d and the one line %q", c.form, code, body, c.code, c.reply)
		}
	}
	got := requests(t, runDir)
	if len(got) != 3 || got[0].Mark != "killed node 2" || !got[1].Stop || !got[2].Abort || got[0].Time.IsZero() {
		t.Errorf("the run was asked %+v, want a mark, a stop and an abort", got)
	}
}

// TestControlRefused checks every refusal of a request: a read-only
// interface, no token where one is set (any address but loopback), a
// request from another site, a run that has ended or is no longer
// running, a run that wrote no stream, and paths that lead out of the
// directory of runs. None writes a request anywhere.
func TestControlRefused(t *testing.T) {
	dir := runsDir(t)
	w, runDir, stopRun := liveRun(t, dir)
	w.Emit(startEvent())
	outside := t.TempDir() // a run directory, but not under --dir
	copyDir(t, filepath.Join(stored, "dsbench"), filepath.Join(outside, "run"))
	target := "/runs/" + runLive + "/control"
	stop := form("action", "stop")
	refused := func(h http.Handler, what, target string, code int, line string, hdr ...string) {
		t.Helper()
		got, body := post(h, target, signed(h, stop), hdr...)
		if code == 0 { // a path the mux cleans first: any refusal will do
			if got/100 == 2 {
				t.Errorf("%s: status %d %q, want a refusal", what, got, body)
			}
			return
		}
		if got != code || !strings.Contains(body, line) || strings.Count(body, "\n") != 1 {
			t.Errorf("%s: status %d %q, want %d and one line with %q", what, got, body, code, line)
		}
	}

	refused(newUI(t, Options{Dir: dir, ReadOnly: true}), "read-only", target, 403, "the interface is read-only")
	tokened := newUI(t, Options{Dir: dir, Token: "s3cret"})
	refused(tokened, "without the token", target, 401, "a token is needed")
	refused(tokened, "a wrong token", target, 401, "a token is needed", "Authorization", "Bearer nope")
	h := newUI(t, Options{Dir: dir})
	refused(h, "cross-site", target, 403, "another site", "Sec-Fetch-Site", "cross-site")
	refused(h, "another origin", target, 403, "another site", "Origin", "http://evil.example")
	refused(h, "outside by ..", "/runs/"+runLive+"/../../"+filepath.Base(outside)+"/run/control", 0, "")
	refused(h, "outside by an absolute path", "/runs/"+filepath.Join(outside, "run")+"/control", 0, "")
	refused(h, "outside by an absolute path, cleaned", "/runs"+filepath.Join(outside, "run")+"/control", 404, "not a run of")
	refused(h, "outside by an encoded ..", "/runs/..%2f"+filepath.Base(outside)+"%2frun/control", 404, "not a run of")
	refused(h, "a run without a stream", "/runs/"+runA+"/control", 409, "wrote no live stream")
	for _, secret := range []string{"", tokened.(*Handler).csrf} { // none, or another server's
		for _, action := range []string{"stop", "abort", "mark"} {
			f := form("action", action, "csrf", secret)
			f.Set("text", "m")
			if code, body := post(h, target, f); code != 403 || !strings.Contains(body, "not one of this server's pages") {
				t.Errorf("%s without this server's secret: status %d %q, want 403", action, code, body)
			}
		}
	}
	if len(requests(t, runDir)) != 0 || len(requests(t, filepath.Join(outside, "run"))) != 0 {
		t.Fatalf("a refused request was written")
	}
	if _, err := os.Stat(filepath.Join(dir, runA, live.ControlFile)); err == nil {
		t.Fatalf("a refused request was written into %s", runA)
	}

	// The same server lets a request through with the token, and from its
	// own pages.
	if code, body := post(tokened, target, signed(tokened, stop), "Authorization", "Bearer s3cret"); code != 200 {
		t.Fatalf("with the token: status %d %q", code, body)
	}
	if code, body := post(h, target, signed(h, stop), "Sec-Fetch-Site", "same-origin", "Origin", "http://example.com"); code != 200 {
		t.Fatalf("from the page itself: status %d %q", code, body)
	}
	if n := len(requests(t, runDir)); n != 2 {
		t.Fatalf("%d requests written, want 2", n)
	}

	stopRun() // killed: no end recorded, and nobody holds the journal
	refused(h, "a killed run", target, 409, "is not running")
	w.Emit(live.Event{Kind: live.KindEnd, End: &live.End{Complete: false, Error: "stopped"}})
	refused(h, "an ended run", target, 409, "has ended")
	if n := len(requests(t, runDir)); n != 2 {
		t.Errorf("%d requests written, want still 2", n)
	}
}
