package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfilePasswordsSealed saves a profile whose --db has a password
// and whose --token is set: neither is in the profile's file, nor in any
// page (the form loaded from it, the form checked again, the form a bad
// value brings back); the form says a password is saved, and a field
// left as shown gives the run the saved value, while a field changed
// does not. A profile an earlier dbgauge wrote in clear is sealed when
// first loaded.
func TestProfilePasswordsSealed(t *testing.T) {
	const pw, tok = "pw-Zq81xK", "tok-7hR2mV"
	db := "postgres://bench:" + pw + "@127.0.0.1:5432/x"
	// The binary launched: writes what it was given, arguments and
	// environment, where the test reads it.
	seen := filepath.Join(t.TempDir(), "seen")
	bin := filepath.Join(t.TempDir(), "dbgauge")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n{ printf '%s\\n' \"$@\"; env; } >"+seen+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h, dir := formUI(t, bin, false)
	csrf := csrfOf(t, h, "dsbench")
	f := formOf(csrf, "db", db, "token", tok, "listen", "127.0.0.1:4222", "nodes", "2", "cycles", "3")
	f.Set("profile", "pg")
	if got := postForm(h, "/new/dsbench/profiles", f); got.code != 303 {
		t.Fatalf("saving: status %d\n%s", got.code, got.body)
	}
	file := filepath.Join(dir, ".dbgauge-ui", "profiles", "dsbench", "pg.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), pw) || strings.Contains(string(b), tok) || !strings.Contains(string(b), `"db": "postgres://bench@127.0.0.1:5432/x"`) {
		t.Errorf("the profile's file holds a password in clear, or not the URL without it:\n%s", b)
	}
	for _, p := range []string{file, filepath.Join(dir, ".dbgauge-ui", "profiles.key")} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, want a file of mode 0600", p, err)
		}
	}

	page := getPage(h, "/new/dsbench?profile=pg")
	if strings.Contains(page.body, pw) || strings.Contains(page.body, tok) {
		t.Errorf("the form loaded from the profile holds a saved password:\n%s", page.body)
	}
	for _, want := range []string{`name="flag.db" value="postgres://bench@127.0.0.1:5432/x"`, `name="saved" value="pg"`,
		"A password is saved in the profile pg for --db, --token", "--db=postgres://bench:***@127.0.0.1:5432/x", "--token=***"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the loaded form does not show %s:\n%s", want, page.body)
		}
	}

	// Posted back as shown: the check keeps the saved values (the command
	// has a password, hidden), the page shows none of them.
	asShown := formOf(csrf, "db", "postgres://bench@127.0.0.1:5432/x", "token", "", "listen", "127.0.0.1:4222", "nodes", "2", "cycles", "3")
	asShown.Set("saved", "pg")
	check := postForm(h, "/new/dsbench/check", asShown)
	if check.code != 200 || strings.Contains(check.body, pw) || strings.Contains(check.body, tok) ||
		!strings.Contains(check.body, "--db=postgres://bench:***@127.0.0.1:5432/x") || !strings.Contains(check.body, "--token=***") {
		t.Errorf("checking the form as shown: status %d\n%s", check.code, check.body)
	}
	bad := formOf(csrf, "db", "postgres://bench@127.0.0.1:5432/x", "cycles", "-1")
	bad.Set("saved", "pg")
	if got := postForm(h, "/new/dsbench", bad); got.code != 400 || strings.Contains(got.body, pw) {
		t.Errorf("a refused launch from the profile: status %d, want 400 without the password\n%s", got.code, got.body)
	}
	changed := formOf(csrf, "db", "postgres://bench@192.0.2.7:5432/x", "cycles", "3")
	changed.Set("saved", "pg")
	if got := postForm(h, "/new/dsbench/check", changed); strings.Contains(got.body, "***@192.0.2.7") {
		t.Errorf("the saved password went with a changed --db:\n%s", got.body)
	}

	// Launched as shown, the run gets the saved values.
	if got := postForm(h, "/new/dsbench", asShown); got.code != 303 {
		t.Fatalf("launching from the profile: status %d\n%s", got.code, got.body)
	}
	for _, j := range h.Jobs() {
		waitJob(t, h, j.Rel)
	}
	b, err = os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	if given := string(b); !strings.Contains(given, pw) || !strings.Contains(given, tok) {
		t.Errorf("the run launched from the profile was not given the saved password and token:\n%s", given)
	}

	// A profile in clear, as an earlier dbgauge saved it.
	old := filepath.Join(filepath.Dir(file), "old.json")
	if err := os.WriteFile(old, []byte(`{"experiment": "dsbench", "values": {"db": "`+db+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if page := getPage(h, "/new/dsbench?profile=old"); page.code != 200 || strings.Contains(page.body, pw) || !strings.Contains(page.body, "A password is saved") {
		t.Errorf("the old profile's form: status %d\n%s", page.code, page.body)
	}
	if b, _ := os.ReadFile(old); strings.Contains(string(b), pw) {
		t.Errorf("the old profile keeps its password in clear once loaded:\n%s", b)
	}

	// A read-only interface writes nothing, and shows no password either.
	ro, roDir := formUI(t, "", true)
	clear := filepath.Join(roDir, ".dbgauge-ui", "profiles", "dsbench", "old.json")
	if err := os.MkdirAll(filepath.Dir(clear), 0o700); err != nil {
		t.Fatal(err)
	}
	inClear := `{"experiment": "dsbench", "values": {"db": "` + db + `"}}`
	if err := os.WriteFile(clear, []byte(inClear), 0o600); err != nil {
		t.Fatal(err)
	}
	if page := getPage(ro, "/new/dsbench?profile=old"); page.code != 200 || strings.Contains(page.body, pw) || !strings.Contains(page.body, "--db=postgres://bench:***@") {
		t.Errorf("the read-only form of a profile in clear: status %d\n%s", page.code, page.body)
	}
	if b, _ := os.ReadFile(clear); string(b) != inClear {
		t.Errorf("the read-only interface rewrote the profile:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(roDir, ".dbgauge-ui", "profiles.key")); err == nil {
		t.Errorf("the read-only interface made a key")
	}
}
