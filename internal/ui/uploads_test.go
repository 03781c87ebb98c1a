package ui

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scriptForms is one experiment with a repeated file flag, whose Check
// reads every file it names as a command line would (and says which it
// cannot read).
type scriptForms struct{}

func (scriptForms) Forms() []Experiment {
	return []Experiment{{Name: "sweep", Flags: []Flag{
		{Name: "script", Kind: KindRepeated, Usage: "a script FILE[@WEIGHT]", Group: "Settings", File: true},
		{Name: "init", Kind: KindText, Usage: "the init FILE", Group: "Settings", File: true},
	}}}
}

func (scriptForms) Check(args []string) string {
	for _, a := range args[1:] {
		_, v, _ := strings.Cut(a, "=")
		p, _ := splitWeight(v)
		if _, err := os.Stat(p); err != nil {
			return "dbgauge: " + err.Error()
		}
	}
	return ""
}

func (scriptForms) Redact(args []string) []string { return args }

func (scriptForms) Child(args []string) ([]string, []string, error) { return args, nil, nil }

// postFiles posts the form of sweep with the text fields and the files
// (field name, file name, content, ...) as a browser sends it.
func postFiles(t *testing.T, h http.Handler, target string, fields map[string]string, files ...string) (int, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for i := 0; i+2 < len(files); i += 3 {
		w, err := mw.CreateFormFile(files[i], files[i+1])
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, files[i+2])
	}
	mw.Close()
	r := httptest.NewRequest("POST", target, &b)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("Accept", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	body, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(body)
}

// TestUploads: a script posted with the form is kept under the directory
// of runs and its path joins the flag's lines (the weight typed stays on
// its own line); a path outside the directory of runs is refused with one
// line before anything reads it; under --read-only nothing is kept.
func TestUploads(t *testing.T) {
	dir := t.TempDir()
	h, err := New(Options{Dir: dir, Experiments: scriptForms{}})
	if err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(dir, "mine.sql")
	write(t, inside, "SELECT 1;\n")
	fields := map[string]string{"csrf": h.csrf, "flag.script": "mine.sql@3"}
	code, body := postFiles(t, h, "/new/sweep/check", fields, "upload.script", "bench.sql", "\\set x 1\nSELECT :x;\n")
	if code != http.StatusOK {
		t.Fatalf("check: %d %s", code, body)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".dbgauge-ui", "uploads", "*", "bench.sql"))
	if len(matches) != 1 {
		t.Fatalf("kept uploads %v, want one bench.sql", matches)
	}
	if b, _ := os.ReadFile(matches[0]); string(b) != "\\set x 1\nSELECT :x;\n" {
		t.Errorf("kept %q", b)
	}
	for _, want := range []string{"--script=" + inside + "@3", "--script=" + matches[0]} {
		if !strings.Contains(body, want) {
			t.Errorf("the command lacks %s: %s", want, body)
		}
	}
	if strings.Contains(body, `"problem":"d`) {
		t.Errorf("refused: %s", body)
	}

	// The same file again: one copy.
	postFiles(t, h, "/new/sweep/check", fields, "upload.script", "bench.sql", "\\set x 1\nSELECT :x;\n")
	if again, _ := filepath.Glob(filepath.Join(dir, ".dbgauge-ui", "uploads", "*", "*")); len(again) != 1 {
		t.Errorf("after the same upload twice: %v", again)
	}

	// Outside the directory of runs, also by a symbolic link inside it.
	os.Symlink("/etc/hostname", filepath.Join(dir, "link.sql"))
	for _, p := range []string{"/etc/hostname", "../x.sql", "link.sql"} {
		code, body = postFiles(t, h, "/new/sweep/check", map[string]string{"csrf": h.csrf, "flag.init": p})
		if code != http.StatusOK || !strings.Contains(body, "the interface runs only files under its directory of runs") {
			t.Errorf("--init %s: %d %s", p, code, body)
		}
	}

	// No token of the form: nothing kept.
	code, _ = postFiles(t, h, "/new/sweep/check", map[string]string{"flag.init": "x"}, "upload.init", "evil.sql", "DROP TABLE x;")
	if code != http.StatusForbidden {
		t.Errorf("a form without its token: %d", code)
	}

	// Read-only: the upload is not kept.
	ro := t.TempDir()
	hr, err := New(Options{Dir: ro, Experiments: scriptForms{}, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	postFiles(t, hr, "/new/sweep/check", map[string]string{"csrf": hr.csrf}, "upload.init", "a.sql", "SELECT 1;")
	if kept, _ := filepath.Glob(filepath.Join(ro, ".dbgauge-ui", "uploads", "*", "*")); len(kept) != 0 {
		t.Errorf("read-only kept %v", kept)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, ".dbgauge-ui", "uploads", "*", "evil.sql")); len(matches) != 0 {
		t.Errorf("kept a file of a form without its token: %v", matches)
	}
}
