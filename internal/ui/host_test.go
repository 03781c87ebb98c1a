package ui

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestHostNames checks the names each kind of listener answers to.
func TestHostNames(t *testing.T) {
	for _, c := range []struct {
		listen string
		extra  []string
		admit  []string
		refuse []string
	}{
		{"127.0.0.1:8080", nil,
			[]string{"127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"},
			[]string{"evil.example:8080", "evil.example", "127.0.0.1:8081", "localhost", "127.0.0.1", "", "localhost.:8080", "127.0.0.1.evil.example:8080"}},
		{"[::1]:9000", nil, []string{"[::1]:9000", "localhost:9000", "127.0.0.1:9000"}, []string{"[::2]:9000", "evil.example:9000"}},
		{"192.0.2.7:8080", []string{"bench.example", "proxy.example:443"},
			[]string{"192.0.2.7:8080", "bench.example", "bench.example:8443", "proxy.example:443"},
			[]string{"localhost:8080", "127.0.0.1:8080", "proxy.example:444", "proxy.example", "evil.example:8080"}},
		{"127.0.0.1:80", nil, []string{"127.0.0.1", "localhost", "127.0.0.1:80"}, []string{"evil.example"}},
	} {
		h, err := allowedHosts(c.listen, c.extra)
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range c.admit {
			if !h.admits(host) {
				t.Errorf("%s %v refuses Host %q", c.listen, c.extra, host)
			}
		}
		for _, host := range c.refuse {
			if h.admits(host) {
				t.Errorf("%s %v admits Host %q", c.listen, c.extra, host)
			}
		}
	}
}

// TestForeignHostRefused serves the interface on a real loopback
// listener without a token, as dbgauge ui does by default, and plays a
// page that rebound its own name to 127.0.0.1: every request under that
// name (the history, the live page that holds the forms' secret, and a
// stop, abort or mark with the right secret) is refused before any
// handler, and nothing reaches the run; the listener's own names pass.
func TestForeignHostRefused(t *testing.T) {
	dir := runsDir(t)
	w, runDir, _ := liveRun(t, dir)
	w.Emit(startEvent())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	h := newUI(t, Options{Dir: dir, Listen: addr})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, h) }()
	defer func() { cancel(); <-done }()

	send := func(method, path, host string, form url.Values) (int, string) {
		t.Helper()
		r, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	livePath := "/runs/" + runLive + "/live"
	control := "/runs/" + runLive + "/control"
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1.evil.example:" + port} {
		for _, path := range []string{"/", livePath, "/jobs", "/new"} {
			if code, body := send("GET", path, host, nil); code != http.StatusMisdirectedRequest || strings.Contains(body, h.(*Handler).csrf) || strings.Count(body, "\n") != 1 {
				t.Errorf("GET %s as %s: status %d, want 421 and one line\n%s", path, host, code, body)
			}
		}
		for _, action := range []string{"stop", "abort", "mark"} {
			f := signed(h, form("action", action, "text", "rebound"))
			if code, body := send("POST", control, host, f); code != http.StatusMisdirectedRequest || !strings.Contains(body, "is not a name of this dbgauge ui") {
				t.Errorf("POST %s as %s: status %d, want 421\n%s", action, host, code, body)
			}
		}
	}
	if got := requests(t, runDir); len(got) != 0 {
		t.Fatalf("a request under a foreign name reached the run: %+v", got)
	}
	for _, host := range []string{addr, "localhost:" + port, "[::1]:" + port} {
		if code, body := send("GET", livePath, host, nil); code != http.StatusOK || !strings.Contains(body, h.(*Handler).csrf) {
			t.Errorf("GET the live page as %s: status %d\n%s", host, code, body)
		}
	}
	if code, body := send("POST", control, "localhost:"+port, signed(h, form("action", "mark", "text", "ours"))); code != http.StatusOK {
		t.Errorf("a mark from the interface's own name: status %d %q", code, body)
	}
}
