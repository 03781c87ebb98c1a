package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestDocsUpToDate regenerates the man pages and the Markdown command
// reference into a temporary directory and fails, naming the file, when the
// committed docs/man or docs/commands differ from it: a command's help text
// changed without `make docs`.
func TestDocsUpToDate(t *testing.T) {
	tmp := t.TempDir()
	gotMan, gotMD := filepath.Join(tmp, "man"), filepath.Join(tmp, "commands")
	if err := GenerateDocs(gotMan, gotMD); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct{ generated, committed string }{
		{gotMan, filepath.Join("..", "..", "docs", "man")},
		{gotMD, filepath.Join("..", "..", "docs", "commands")},
	} {
		want := docsFiles(t, d.generated)
		have := docsFiles(t, d.committed)
		for _, name := range sortedKeys(want) {
			committed := filepath.Join("docs", filepath.Base(d.committed), name)
			b, ok := have[name]
			switch {
			case !ok:
				t.Errorf("%s is missing: run make docs", committed)
			case !bytes.Equal(b, want[name]):
				t.Errorf("%s differs from what the current commands generate: run make docs", committed)
			}
		}
		for _, name := range sortedKeys(have) {
			if _, ok := want[name]; !ok {
				t.Errorf("%s documents no current command: run make docs", filepath.Join("docs", filepath.Base(d.committed), name))
			}
		}
	}
}

// TestDocsDeterministic generates twice and expects the same bytes: no date,
// version or machine-dependent default may reach the pages.
func TestDocsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := GenerateDocs(filepath.Join(dir, "man"), filepath.Join(dir, "md")); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"man", "md"} {
		fa, fb := docsFiles(t, filepath.Join(a, sub)), docsFiles(t, filepath.Join(b, sub))
		if len(fa) == 0 || len(fa) != len(fb) {
			t.Fatalf("%s: %d files, then %d", sub, len(fa), len(fb))
		}
		for name, content := range fa {
			if !bytes.Equal(content, fb[name]) {
				t.Errorf("%s/%s differs between two generations", sub, name)
			}
		}
	}
}

// docsFiles reads the generated files (dbgauge*.1, dbgauge*.md) of dir; a
// missing dir has none.
func docsFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !docsName(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
