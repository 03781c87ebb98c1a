package results

import (
	"os"
	"path/filepath"
	"testing"
)

func TestJournalSurvivesATornLine(t *testing.T) {
	dir := t.TempDir()
	r, err := Create(filepath.Join(dir, "run"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := r.Journal().Append(SizeSweepRetrieve{Rep: i}); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
	// A crash mid-write leaves half a line: it is ignored, the rest is kept.
	f, _ := os.OpenFile(r.Path(JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"retrieve","da`)
	f.Close()
	entries, err := ReadJournal(r.Path(JournalFile))
	if err != nil || len(entries) != 3 || entries[2].Type != "retrieve" || string(entries[2].Data) != `{"access":"","key":0,"ms":0,"rep":2,"rows":0,"size":0}` {
		t.Fatalf("entries %+v, %v", entries, err)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "new", "run")); err != nil {
		t.Errorf("new directory refused: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Error("CheckWritable created the directory")
	}
	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o755)
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	if err := CheckWritable(full); err == nil {
		t.Error("a non-empty directory was accepted")
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if err := CheckWritable(filepath.Join(file, "run")); err == nil {
		t.Error("a path under a file was accepted")
	}
	if files, _ := os.ReadDir(dir); len(files) != 2 {
		t.Errorf("probe files left behind: %v", files)
	}
}

func TestWriteJSONIsAtomic(t *testing.T) {
	r, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.WriteJSON("results.json", map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(r.Path("results.json"))
	if string(b) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("results.json = %q", b)
	}
	if _, err := os.Stat(r.Path(".results.json.tmp")); err == nil {
		t.Error("temporary file left behind")
	}
}
