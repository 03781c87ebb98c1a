package cli

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/ui"
)

// TestFormForeignHostRefused plays a page that rebound its own name to
// the loopback address the interface listens on, without a token (the
// real listener is internal/ui's TestForeignHostRefused): the form (with
// its secret), a launch, a profile and a check sent under that name, even
// with the right secret, are refused (421) and nothing is launched or
// written; under the listener's own names the same requests pass.
func TestFormForeignHostRefused(t *testing.T) {
	dir := t.TempDir()
	const addr = "127.0.0.1:18080"
	h, err := ui.New(ui.Options{Dir: dir, Experiments: forms{}, Binary: "/nonexistent/dbgauge", Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, path, host string, form url.Values) answer {
		r := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Host = host
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return serve(h, r)
	}
	m := csrfField.FindStringSubmatch(send("GET", "/new/dsbench", addr, nil).body)
	if m == nil {
		t.Fatal("the form under the listener's own name carries no secret")
	}
	launchForm := formOf(m[1], "db", "sqlite:/tmp/x.db", "session", "SELECT 1", "cycles", "2")
	launchForm.Set("profile", "p")
	for _, host := range []string{"evil.example:18080", "evil.example"} {
		if got := send("GET", "/new/dsbench", host, nil); got.code != http.StatusMisdirectedRequest || strings.Contains(got.body, m[1]) {
			t.Errorf("GET the form as %s: status %d, want 421 without the secret\n%s", host, got.code, got.body)
		}
		for _, path := range []string{"/new/dsbench", "/new/dsbench/profiles", "/new/dsbench/check"} {
			if got := send("POST", path, host, launchForm); got.code != http.StatusMisdirectedRequest || !strings.Contains(got.body, "is not a name of this dbgauge ui") {
				t.Errorf("POST %s as %s: status %d, want 421\n%s", path, host, got.code, got.body)
			}
		}
	}
	if n := len(h.Jobs()); n != 0 || len(entries(t, dir)) != 0 {
		t.Fatalf("requests under a foreign name launched %d runs or wrote %v", n, entries(t, dir))
	}
	for _, host := range []string{addr, "localhost:18080", "[::1]:18080"} {
		if got := send("POST", "/new/dsbench/check", host, launchForm); got.code != http.StatusOK {
			t.Errorf("a check as %s: status %d\n%s", host, got.code, got.body)
		}
	}
}
