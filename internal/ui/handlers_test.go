package ui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// get answers one request of h.
func get(h http.Handler, target string, hdr ...string) (int, string, http.Header) {
	r := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b), w.Header()
}

func newUI(t *testing.T, opt Options) http.Handler {
	t.Helper()
	h, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var listed = regexp.MustCompile(`name="run" value="([^"]+)"`)

// listing is a history address (its query) and the runs it must list, in
// order.
type listing struct {
	query string
	want  []string
}

// checkListed asks the history for each query and checks the runs listed.
func checkListed(t *testing.T, h http.Handler, cases []listing) {
	t.Helper()
	for _, c := range cases {
		code, body, _ := get(h, "/"+c.query)
		if code != http.StatusOK {
			t.Errorf("%s: status %d\n%s", c.query, code, body)
			continue
		}
		var got []string
		for _, m := range listed.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q lists %v, want %v", c.query, got, c.want)
		}
	}
}

// TestHistoryFilters checks the history lists the catalog's runs newest
// first and that each filter keeps what it names.
func TestHistoryFilters(t *testing.T) {
	h := newUI(t, Options{Dir: runsDir(t)})
	cases := []listing{
		{"", []string{runA, runB, runDS}}, // runA started 0.1 ms after runB
		{"?experiment=dsbench", []string{runDS}},
		{"?experiment=wisconsin&engine=sqlite", []string{runA, runB}},
		{"?engine=duckdb", nil},
		{"?status=complete", []string{runA, runB, runDS}},
		{"?status=failed", nil},
		{"?from=2026-11-21", []string{runA, runB}},
		{"?to=2026-11-20", []string{runDS}},
		{"?from=2026-11-20&to=2026-11-20", []string{runDS}},
		{"?from=2026-11-25", nil},
	}
	checkListed(t, h, cases)
	code, body, _ := get(h, "/?from=yesterday")
	if code != http.StatusBadRequest || !strings.Contains(body, "from=&#34;yesterday&#34;: give a day as YYYY-MM-DD") {
		t.Errorf("a bad date: status %d, want 400 naming from and the form\n%s", code, body)
	}
	_, body, _ = get(h, "/")
	if !strings.Contains(body, `href="/runs/`+runA+`/report.html"`) || !strings.Contains(body, runB+" (no report)") {
		t.Errorf("the report links are wrong:\n%s", body)
	}
}

// TestRunFilesStayInside checks that a run's report is served and that
// nothing outside the run directories is: not by "..", encoded or not,
// not by a symbolic link out of a run, not a file of the directory of
// runs that is in no run.
func TestRunFilesStayInside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	write(t, secret, "the secret")
	dir := runsDir(t)
	write(t, filepath.Join(dir, "loose.txt"), "the secret")
	if err := os.Symlink(secret, filepath.Join(dir, runA, "link.txt")); err != nil {
		t.Fatal(err)
	}
	h := newUI(t, Options{Dir: dir})
	if code, body, _ := get(h, "/runs/"+runA+"/report.html"); code != http.StatusOK || !strings.Contains(body, "the report of run A") {
		t.Fatalf("the report: status %d\n%s", code, body)
	}
	rel, err := filepath.Rel(filepath.Join(dir, runA), secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{
		"/runs/" + runA + "/" + rel,
		"/runs/" + runA + "/" + strings.ReplaceAll(rel, "/", "%2f"),
		"/runs/" + runA + "/" + strings.ReplaceAll(strings.ReplaceAll(rel, "/", "%2F"), ".", "%2e"),
		"/runs/" + runA + "/link.txt",
		"/runs/loose.txt",
		"/runs/" + runA + "/../loose.txt",
		"/runs/" + runA + "%2f..%2floose.txt",
		"/runs//" + strings.TrimPrefix(secret, "/"),
	} {
		code, body, _ := get(h, target)
		if code == http.StatusOK || strings.Contains(body, "the secret") {
			t.Errorf("%s: status %d, served what lies outside the runs:\n%s", target, code, body)
		}
	}
}

// TestTokenRequired checks that only loopback may go without a token and
// that a token, once set, is asked of every request, in any of its
// three forms.
func TestTokenRequired(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true},
		{"localhost:8080", "", true},
		{"[::1]:8080", "", true},
		{"0.0.0.0:8080", "", false},
		{":8080", "", false},
		{"192.0.2.7:8080", "", false},
		{"192.0.2.7:8080", "T", true},
		{"nonsense", "T", false},
	} {
		if err := CheckListen(c.addr, c.token); (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, %q) = %v, want ok %v", c.addr, c.token, err, c.ok)
		}
	}
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "s3cret", true}, // loopback needs none
		{"192.0.2.7:8080", "s3cret", false},
		{"192.0.2.7:8080", "0123456789abcdef0123456789abcde", false}, // 31 hex digits
		{"192.0.2.7:8080", "0123456789abcdef0123456789abcdef", true},
		{"192.0.2.7:8080", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"192.0.2.7:8080", "123456789012345678901234567890123456789", true}, // 39 digits
		{"192.0.2.7:8080", "12345678901234567890123456789012345678", false},
		{"192.0.2.7:8080", "q3Xc9_Lm-Zp0RtVw8Ky2Hd", true}, // 22 of base64url
		{"0.0.0.0:8080", "Tr0ub4dor&3", false},
	} {
		if err := CheckToken(c.addr, c.token); (err == nil) != c.ok {
			t.Errorf("CheckToken(%q, %q) = %v, want ok %v", c.addr, c.token, err, c.ok)
		}
	}
	h := newUI(t, Options{Dir: runsDir(t), Token: "s3cret"})
	for _, target := range []string{"/", "/?token=wrong", "/runs/" + runA + "/report.html", "/compare?run=" + runA + "&run=" + runB, "/assets/style.css"} {
		if code, body, _ := get(h, target); code != http.StatusUnauthorized || strings.Contains(body, runA) {
			t.Errorf("%s without the token: status %d, want 401\n%s", target, code, body)
		}
	}
	if code, _, _ := get(h, "/", "Authorization", "Bearer wrong"); code != http.StatusUnauthorized {
		t.Errorf("a wrong bearer token: status %d, want 401", code)
	}
	code, _, hdr := get(h, "/?token=s3cret")
	cookie := hdr.Get("Set-Cookie")
	if code != http.StatusOK || !strings.HasPrefix(cookie, tokenCookie+"=s3cret") {
		t.Fatalf("?token=: status %d, cookie %q", code, cookie)
	}
	if code, _, _ := get(h, "/runs/"+runA+"/report.html", "Cookie", tokenCookie+"=s3cret"); code != http.StatusOK {
		t.Errorf("with the cookie: status %d", code)
	}
	if code, _, _ := get(h, "/", "Authorization", "Bearer s3cret"); code != http.StatusOK {
		t.Errorf("with the bearer token: status %d", code)
	}
}

// TestCompareTicked checks the compare page of two stored runs and the
// refusals: runs of different experiments (the command line's message),
// one run, a run the catalog does not list.
func TestCompareTicked(t *testing.T) {
	h := newUI(t, Options{Dir: runsDir(t)})
	code, body, _ := get(h, "/compare?run="+runB+"&run="+runA)
	if code != http.StatusOK || !strings.Contains(body, "Comparison: 2 Wisconsin benchmark runs") {
		t.Fatalf("compare: status %d\n%.2000s", code, body)
	}
	if a, b := strings.Index(body, runA), strings.Index(body, runB); a < 0 || b < 0 || b > a {
		t.Errorf("the page does not name both runs, the baseline first (%s at %d, %s at %d)", runB, b, runA, a)
	}
	for _, c := range []struct{ query, want string }{
		{"?run=" + runA + "&run=" + runDS, "is a dsbench run but the baseline"},
		{"?run=" + runA + "&run=" + runDS, "only runs of the same experiment can be compared"},
		{"?run=" + runA, "tick two or more runs"},
		{"?run=" + runA + "&run=../" + runB, "not a run of"},
	} {
		code, body, _ := get(h, "/compare"+c.query)
		if code != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("%s: status %d, want 400 with %q\n%s", c.query, code, c.want, body)
		}
	}
}
