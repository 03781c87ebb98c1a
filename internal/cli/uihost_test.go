package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/ui"
)

// TestFormForeignHostRefused serves the forms on a real loopback
// listener without a token and plays a page that rebound its own name to
// 127.0.0.1: the form (with its secret), a launch, a profile and a check
// sent under that name, even with the right secret, are refused (421)
// and nothing is launched or written; under the listener's own names the
// same requests pass.
func TestFormForeignHostRefused(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	h, err := ui.New(ui.Options{Dir: dir, Experiments: forms{}, Binary: "/nonexistent/dbgauge", Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ui.Serve(ctx, l, h) }()
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
	_, page := send("GET", "/new/dsbench", addr, nil)
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the form under the listener's own name carries no secret:\n%s", page)
	}
	launchForm := formOf(m[1], "db", "sqlite:/tmp/x.db", "session", "SELECT 1", "cycles", "2")
	launchForm.Set("profile", "p")
	for _, host := range []string{"evil.example:" + port, "evil.example"} {
		if code, body := send("GET", "/new/dsbench", host, nil); code != http.StatusMisdirectedRequest || strings.Contains(body, m[1]) {
			t.Errorf("GET the form as %s: status %d, want 421 without the secret\n%s", host, code, body)
		}
		for _, path := range []string{"/new/dsbench", "/new/dsbench/profiles", "/new/dsbench/check"} {
			if code, body := send("POST", path, host, launchForm); code != http.StatusMisdirectedRequest || !strings.Contains(body, "is not a name of this dbgauge ui") {
				t.Errorf("POST %s as %s: status %d, want 421\n%s", path, host, code, body)
			}
		}
	}
	if n := len(h.Jobs()); n != 0 || len(entries(t, dir)) != 0 {
		t.Fatalf("requests under a foreign name launched %d runs or wrote %v", n, entries(t, dir))
	}
	for _, host := range []string{addr, "localhost:" + port, "[::1]:" + port} {
		if code, body := send("POST", "/new/dsbench/check", host, launchForm); code != http.StatusOK {
			t.Errorf("a check as %s: status %d\n%s", host, code, body)
		}
	}
}
