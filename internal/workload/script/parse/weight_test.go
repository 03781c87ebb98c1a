package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseWeight(t *testing.T) {
	cases := []struct {
		spec   string
		name   string
		weight int
		err    string
	}{
		{"a.sql", "a.sql", 1, ""},
		{"a.sql@3", "a.sql", 3, ""},
		{"a.sql@0", "a.sql", 0, ""},
		{"a.sql@+7", "a.sql", 7, ""},
		{"dir@x/a.sql@2", "dir@x/a.sql", 2, ""},
		{"a.sql@2147483647", "a.sql", 2147483647, ""},
		// pgbench's own cases (t/002_pgbench_no_server.pl, "invalid weight").
		{"select-only@one", "", 0, "invalid weight specification: @one"},
		{"select-only@-1", "", 0, "weight specification out of range (0 .. 2147483647): -1"},
		{"a.sql@2147483648", "", 0, "weight specification out of range"},
		{"a.sql@", "", 0, "invalid weight specification: @"},
		{"a.sql@1x", "", 0, "invalid weight specification: @1x"},
		{"a.sql@+-1", "", 0, "invalid weight specification"},
		{"a.sql@99999999999999999999", "", 0, "invalid weight specification"},
	}
	for _, c := range cases {
		name, w, err := ParseWeight(c.spec)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseWeight(%q) error %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || name != c.name || w != c.weight {
			t.Errorf("ParseWeight(%q) = %q, %d, %v; want %q, %d", c.spec, name, w, err, c.name, c.weight)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.sql")
	if err := os.WriteFile(f, []byte("SELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(f+"@5", testOpts)
	if err != nil || s.Weight != 5 || s.Name != f {
		t.Fatalf("Load: %+v, %v", s, err)
	}
	if _, err := Load(filepath.Join(dir, "none.sql"), testOpts); err == nil || !strings.Contains(err.Error(), "could not open file") {
		t.Errorf("Load of a missing file: %v", err)
	}
	if err := os.WriteFile(f, []byte("SELECT 1;\n\\sleep 1 week\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(f, testOpts); err == nil || !strings.HasPrefix(err.Error(), f+":2:10: ") {
		t.Errorf("Load of a bad script: %v, want it named %s:2:10", err, f)
	}
}

func TestCheckScripts(t *testing.T) {
	one := func(w int) *Script { return &Script{Name: "s", Weight: w} }
	if err := CheckScripts([]*Script{one(0), one(1)}); err != nil {
		t.Errorf("weights 0 and 1: %v", err)
	}
	// pgbench's "weight zero" case: -b se@0 -b si@0 -b tpcb@0.
	if err := CheckScripts([]*Script{one(0), one(0), one(0)}); err == nil || !strings.Contains(err.Error(), "weight must not be zero") {
		t.Errorf("all weights 0: %v", err)
	}
	// pgbench's "too many scripts" case: 129 times -S.
	many := make([]*Script, 129)
	for i := range many {
		many[i] = one(1)
	}
	if err := CheckScripts(many); err == nil || !strings.Contains(err.Error(), "at most 128 SQL scripts") {
		t.Errorf("129 scripts: %v", err)
	}
	if err := CheckScripts(many[:128]); err != nil {
		t.Errorf("128 scripts: %v", err)
	}
	if err := CheckScripts(nil); err == nil {
		t.Error("no script accepted")
	}
}
