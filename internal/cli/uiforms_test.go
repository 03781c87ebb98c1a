package cli

import (
	"bytes"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/ui"
)

// endRunsWait bounds how long a test waits for the runs an interface
// launched to end once interrupted (each got SIGINT, as Ctrl-C, and ends
// within seconds, writing what it measured).
const endRunsWait = 2 * time.Minute

// formUI is the web interface over a new directory of runs, with the
// command line's forms; binary is what it launches ("" in the tests that
// launch nothing).
func formUI(t *testing.T, binary string, readOnly bool) (*ui.Handler, string) {
	t.Helper()
	dir := t.TempDir()
	h, err := ui.New(ui.Options{Dir: dir, Experiments: forms{}, Binary: binary, ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if left := h.EndRuns(endRunsWait); len(left) > 0 {
			t.Errorf("runs still going: %v", left)
		}
	})
	return h, dir
}

// answer is one response of the interface, its body unescaped (so that
// a test looks for the text a person reads).
type answer struct {
	code int
	body string
	hdr  http.Header
}

func serve(h http.Handler, r *http.Request) answer {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return answer{w.Code, html.UnescapeString(string(b)), w.Header()}
}

func getPage(h http.Handler, target string) answer {
	return serve(h, httptest.NewRequest("GET", target, nil))
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrfOf is the secret the server's forms carry.
func csrfOf(t *testing.T, h http.Handler, experiment string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(getPage(h, "/new/"+experiment).body)
	if m == nil {
		t.Fatalf("the form of %s carries no csrf field", experiment)
	}
	return m[1]
}

// formOf is a posted form: the secret, then each flag's field from
// pairs of flag name and value.
func formOf(csrf string, pairs ...string) url.Values {
	f := url.Values{"csrf": {csrf}}
	for i := 0; i+1 < len(pairs); i += 2 {
		f.Add("flag."+pairs[i], pairs[i+1])
	}
	return f
}

func postForm(h http.Handler, target string, form url.Values, hdr ...string) answer {
	r := httptest.NewRequest("POST", target, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return serve(h, r)
}

// entries are the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestFormForEveryExperiment opens the form of every registered
// experiment (the registry, the test-only probe included: a new
// experiment gets its form for free) and finds each flag of its command
// there, with its default and its help, except those the interface sets
// itself.
func TestFormForEveryExperiment(t *testing.T) {
	h, _ := formUI(t, "", false)
	list := getPage(h, "/new")
	if list.code != http.StatusOK {
		t.Fatalf("/new: status %d", list.code)
	}
	if history := getPage(h, "/"); !strings.Contains(history.body, `<a href="/new">New run</a>`) {
		t.Errorf("the history page has no link to the forms")
	}
	if !experimentNames["probe"] || !experimentNames["dsbench"] || !experimentNames["wisconsin"] {
		t.Fatalf("the registry of experiments lacks probe, dsbench or wisconsin: %v", experimentNames)
	}
	for name := range experimentNames {
		cmd := commands[name](io.Discard, io.Discard)
		if !strings.Contains(list.body, `href="/new/`+name+`">`+name+`</a></td><td>`+cmd.Short) {
			t.Errorf("/new does not list %s with its short help", name)
		}
		page := getPage(h, "/new/"+name)
		if page.code != http.StatusOK {
			t.Errorf("/new/%s: status %d\n%s", name, page.code, page.body)
			continue
		}
		if !strings.Contains(page.body, `<pre id="command">dbgauge `+name+`</pre>`) {
			t.Errorf("/new/%s: the command shown for the defaults is not dbgauge %s", name, name)
		}
		fields := 0
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			field := `name="flag.` + f.Name + `"`
			if slices.Contains(notInForms, f.Name) || f.Hidden {
				if strings.Contains(page.body, field) {
					t.Errorf("/new/%s has a field for --%s, which the interface sets or the help hides", name, f.Name)
				}
				return
			}
			fields++
			if !strings.Contains(page.body, f.Usage) {
				t.Errorf("/new/%s: no help of --%s: %q", name, f.Name, f.Usage)
			}
			var want string
			switch typ := f.Value.Type(); {
			case typ == "bool" && f.DefValue == "true":
				want = field + ` value="true" checked>`
			case typ == "bool":
				want = field + ` value="true">`
			case typ == "stringArray":
				want = field + ` rows="2" cols="50" placeholder="one value a line"></textarea>`
			case strings.Contains(page.body, `<select id="flag.`+f.Name+`" `+field+`>`):
				want = `<option selected>` + f.DefValue + `</option>`
				if f.DefValue == "" {
					want = `<option value="" selected>`
				}
			default:
				want = field + ` value="` + f.DefValue + `"`
			}
			if !strings.Contains(page.body, want) {
				t.Errorf("/new/%s: --%s (%s, default %q) is not in the form as %s", name, f.Name, f.Value.Type(), f.DefValue, want)
			}
		})
		if got := strings.Count(page.body, `name="flag.`); got != fields {
			t.Errorf("/new/%s has %d fields, its command %d flags to set", name, got, fields)
		}
	}
}

// TestFormBadInputIsCommandLines posts bad values and finds, on the form
// that comes back, the very line dbgauge prints for the same flags on the
// command line (which exits 2); nothing starts and nothing is written.
func TestFormBadInputIsCommandLines(t *testing.T) {
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	csrf := csrfOf(t, h, "dsbench")
	// The interface runs only scripts under its directory of runs.
	scripts := filepath.Join(dir, "scripts")
	if err := os.Mkdir(scripts, 0o755); err != nil {
		t.Fatal(err)
	}
	badScript := writeFile(t, scripts, "bad.sql", "\\set x 1 +\n")
	goodScript := writeFile(t, scripts, "good.sql", "SELECT 1;\n")
	for _, c := range []struct {
		experiment string
		flags      []string // name, value, name, value...
	}{
		{"dsbench", []string{"workload", "script"}},                       // the workload's own flag missing
		{"dsbench", []string{"workload", "script", "script", badScript}},  // a script refused at FILE:LINE:COL
		{"dsbench", []string{"workload", "select", "script", goodScript}}, // a flag of another workload
		{"dsbench", []string{"duration", "-1s"}},
		{"dsbench", []string{"scales", "1,x", "cycles", "2"}},
		{"dsbench", []string{"backoff-cap", "1s"}},           // only with --retry: plan() says so
		{"dsbench", []string{"dsi", "true", "threads", "4"}}, // a plan's refusal of two flags together
		{"dsbench", []string{"nodes", "3"}},                  // remote nodes need --listen
		{"wisconsin", []string{"size", "150"}},               // the workload's own check
		{"wisconsin", []string{"org", "heap,heap"}},          // a list's
		{"qac", []string{"seed", "-1"}},
	} {
		cli := []string{c.experiment}
		for i := 0; i+1 < len(c.flags); i += 2 {
			cli = append(cli, "--"+c.flags[i]+"="+c.flags[i+1])
		}
		code, _, stderr := run(cli...)
		line := strings.TrimSpace(stderr)
		got := postForm(h, "/new/"+c.experiment, formOf(csrf, c.flags...))
		if code != ExitBadInput || strings.Count(line, "\n") > 0 || !strings.HasPrefix(line, "dbgauge: ") {
			t.Fatalf("%v: the command line exits %d with %q, want 2 and one line", cli, code, stderr)
		}
		if strings.Contains(line, "s3cret") {
			t.Errorf("%v: the command line shows the password: %s", cli, line)
		}
		if got.code != http.StatusBadRequest || !strings.Contains(got.body, `<p id="problem" class="problem">`+line+`</p>`) {
			t.Errorf("%v: the form answers %d without the command line's line %q\n%s", cli, got.code, line, got.body)
		}
		if n := len(h.Jobs()); n != 0 {
			t.Errorf("%v: %d runs launched", cli, n)
		}
	}
	// The control: what the command line accepts, the form launches
	// (here a binary that does not exist: a 500 that says so).
	if got := postForm(h, "/new/wisconsin", formOf(csrf, "pause-limit", "1h")); got.code != http.StatusInternalServerError || !strings.Contains(got.body, "the run did not start") {
		t.Errorf("good values: the form answers %d\n%.500s", got.code, got.body)
	}
	if got := postForm(h, "/new/dsbench", formOf(csrf, "workload", "script", "script", goodScript+"@2")); got.code != http.StatusInternalServerError || !strings.Contains(got.body, "the run did not start") {
		t.Errorf("a good script: the form answers %d\n%.500s", got.code, got.body)
	}
	outside := writeFile(t, t.TempDir(), "good.sql", "SELECT 1;\n")
	if got := postForm(h, "/new/dsbench", formOf(csrf, "workload", "script", "script", outside)); got.code != http.StatusBadRequest || !strings.Contains(got.body, "--script "+outside+": the interface runs only files under its directory of runs") {
		t.Errorf("a script outside the directory of runs: the form answers %d\n%.500s", got.code, got.body)
	}
	if left := entries(t, dir); !slices.Equal(left, []string{"scripts"}) {
		t.Errorf("bad input wrote %v into the directory of runs", left)
	}
	if _, err := os.Stat("runs"); err == nil {
		t.Errorf("the command line left a directory of runs in %s", must(os.Getwd()))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestFormGuards checks what keeps the forms from being misused: a form
// posted without the server's secret, or from another site, is refused
// (403), as is launching or saving under --read-only, whose forms show
// neither button; nothing is written.
func TestFormGuards(t *testing.T) {
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	csrf := csrfOf(t, h, "dsbench")
	for _, c := range []struct {
		name string
		form url.Values
		hdr  []string
		want string
	}{
		{"no secret", formOf("", "cycles", "2"), nil, "not one of this server's pages"},
		{"a wrong secret", formOf(strings.Repeat("0", len(csrf)), "cycles", "2"), nil, "not one of this server's pages"},
		{"another site", formOf(csrf, "cycles", "2"), []string{"Origin", "http://evil.example"}, "a page of another site"},
	} {
		for _, target := range []string{"/new/dsbench", "/new/dsbench/profiles", "/new/dsbench/check"} {
			got := postForm(h, target, c.form, c.hdr...)
			if got.code != http.StatusForbidden || !strings.Contains(got.body, c.want) {
				t.Errorf("%s to %s: status %d, want 403 saying %q\n%s", c.name, target, got.code, c.want, got.body)
			}
		}
	}
	same := postForm(h, "/new/dsbench/check", formOf(csrf, "cycles", "2"), "Origin", "http://example.com") // httptest's Host
	if same.code != http.StatusOK || !strings.Contains(same.body, "dbgauge dsbench --cycles=2") {
		t.Errorf("the server's own form: status %d\n%s", same.code, same.body)
	}

	tokened, err := ui.New(ui.Options{Dir: t.TempDir(), Token: "s3cret", Experiments: forms{}, Binary: "/nonexistent/dbgauge"})
	if err != nil {
		t.Fatal(err)
	}
	if got := postForm(tokened, "/new/dsbench", formOf(csrf, "cycles", "2")); got.code != http.StatusUnauthorized {
		t.Errorf("launching without the token: status %d, want 401", got.code)
	}

	ro, roDir := formUI(t, "/nonexistent/dbgauge", true)
	page := getPage(ro, "/new/dsbench")
	if strings.Contains(page.body, `id="launch"`) || strings.Contains(page.body, `id="save"`) || !strings.Contains(page.body, "--read-only") {
		t.Errorf("the read-only form shows a launch or save button, or does not say why not:\n%s", page.body)
	}
	roCSRF := csrfOf(t, ro, "dsbench")
	for _, target := range []string{"/new/dsbench", "/new/dsbench/profiles"} {
		f := formOf(roCSRF, "cycles", "2")
		f.Set("profile", "p1")
		got := postForm(ro, target, f)
		if got.code != http.StatusForbidden || strings.Count(strings.TrimSpace(got.body), "\n") != 0 || !strings.Contains(got.body, "--read-only") {
			t.Errorf("read-only %s: status %d, want 403 and one line naming --read-only\n%s", target, got.code, got.body)
		}
	}
	if got := postForm(ro, "/new/dsbench/check", formOf(roCSRF, "cycles", "2")); got.code != http.StatusOK {
		t.Errorf("read-only check (writes nothing): status %d", got.code)
	}
	for _, d := range []string{dir, roDir} {
		if left := entries(t, d); len(left) != 0 {
			t.Errorf("%s holds %v", d, left)
		}
	}
}

// TestFormProfiles saves a form's values under a name, finds the profile
// listed on the form and its file where the help says, loads it back,
// and refuses a bad name or values the command line refuses with one
// line, writing nothing.
func TestFormProfiles(t *testing.T) {
	h, dir := formUI(t, "", false)
	csrf := csrfOf(t, h, "dsbench")

	bad := formOf(csrf, "cycles", "2")
	for _, name := range []string{"../up", "a/b", ".hidden", "", "sp ace", strings.Repeat("x", 65)} {
		bad.Set("profile", name)
		got := postForm(h, "/new/dsbench/profiles", bad)
		if got.code != http.StatusBadRequest || !strings.Contains(got.body, `profile name "`+name+`": use up to 64 letters, digits, - _ and .`) {
			t.Errorf("profile name %q: status %d\n%s", name, got.code, got.body)
		}
	}
	refused := formOf(csrf, "duration", "-1s")
	refused.Set("profile", "neg")
	_, _, stderr := run("dsbench", "--duration", "-1s")
	if got := postForm(h, "/new/dsbench/profiles", refused); got.code != http.StatusBadRequest || !strings.Contains(got.body, strings.TrimSpace(stderr)) {
		t.Errorf("a profile of refused values: status %d, want 400 with %q", got.code, stderr)
	}
	if left := entries(t, dir); len(left) != 0 {
		t.Fatalf("refused profiles wrote %v", left)
	}

	good := formOf(csrf, "scales", "1,2", "cycles", "3", "prepare", "true", "mode", "select")
	good.Set("profile", "small-1.a_b")
	got := postForm(h, "/new/dsbench/profiles", good)
	if got.code != http.StatusSeeOther || got.hdr.Get("Location") != "/new/dsbench?profile=small-1.a_b" {
		t.Fatalf("saving: status %d, location %q\n%s", got.code, got.hdr.Get("Location"), got.body)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".dbgauge-ui", "profiles", "dsbench", "small-1.a_b.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"experiment": "dsbench"`, `"scales": "1,2"`, `"cycles": "3"`, `"prepare": "true"`, `"mode": "select"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the profile's file lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `"threads"`) {
		t.Errorf("the profile keeps a default value:\n%s", b)
	}
	if page := getPage(h, "/new/dsbench"); !strings.Contains(page.body, `<a href="/new/dsbench?profile=small-1.a_b">small-1.a_b</a>`) {
		t.Errorf("the form does not list the profile:\n%s", page.body)
	}
	page := getPage(h, "/new/dsbench?profile=small-1.a_b")
	for _, want := range []string{`name="flag.scales" value="1,2"`, `name="flag.prepare" value="true" checked>`, `<option selected>select</option>`,
		`<pre id="command">dbgauge dsbench --mode=select --scales=1,2 --cycles=3 --prepare</pre>`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the loaded profile does not show %s:\n%s", want, page.body)
		}
	}
	if got := getPage(h, "/new/dsbench?profile=nope"); got.code != http.StatusBadRequest || !strings.Contains(got.body, `no profile "nope" of dsbench`) {
		t.Errorf("an unknown profile: status %d\n%s", got.code, got.body)
	}
	if got := getPage(h, "/"); got.code != http.StatusOK || !strings.Contains(got.body, "0 of 0 runs") {
		t.Errorf("the history counts the profiles as runs:\n%s", got.body)
	}
}

// TestFormUploadsScript: a script uploaded with the dsbench form is kept
// under the directory of runs and runs as --script; a bad one comes back
// with the command line's FILE:LINE:COL line for the file kept.
func TestFormUploadsScript(t *testing.T) {
	h, dir := formUI(t, "/nonexistent/dbgauge", false)
	csrf := csrfOf(t, h, "dsbench")
	post := func(name, text string) answer {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("csrf", csrf)
		mw.WriteField("flag.workload", "script")
		w, _ := mw.CreateFormFile("upload.script", name)
		io.WriteString(w, text)
		mw.Close()
		r := httptest.NewRequest("POST", "/new/dsbench", &b)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		return serve(h, r)
	}
	if got := post("good.sql", "\\set x random(1, 10)\nSELECT :x;\n"); got.code != http.StatusInternalServerError || !strings.Contains(got.body, "the run did not start") {
		t.Errorf("a good upload: the form answers %d\n%.800s", got.code, got.body)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".dbgauge-ui", "uploads", "*", "good.sql"))
	if len(kept) != 1 {
		t.Fatalf("uploads kept: %v", kept)
	}
	got := post("bad.sql", "\\set x 1 +\n")
	bad, _ := filepath.Glob(filepath.Join(dir, ".dbgauge-ui", "uploads", "*", "bad.sql"))
	if got.code != http.StatusBadRequest || len(bad) != 1 || !strings.Contains(got.body, `<p id="problem" class="problem">dbgauge: `+bad[0]+":1:") {
		t.Errorf("a bad upload (kept %v): the form answers %d\n%.800s", bad, got.code, got.body)
	}
}
