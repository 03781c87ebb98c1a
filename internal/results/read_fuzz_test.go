package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Fuzz targets of the run-directory readers: whatever a run directory
// holds (a torn file, another version's, a hand edit), reading it gives a
// value or an error, and never panics, nor do the catalog row and the
// benchmark export made from what was read.

// storedRuns are real run directories, one per experiment, kept for the
// page's golden tests.
func storedRuns(f *testing.F) []string {
	var dirs []string
	all, _ := filepath.Glob(filepath.Join("..", "report", "htmlreport", "testdata", "runs", "*"))
	for _, d := range all {
		if IsRunDir(d) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		f.Fatal("no run directories in ../report/htmlreport/testdata/runs")
	}
	return dirs
}

func readOr(f *testing.F, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		f.Fatal(err)
	}
	return b
}

// FuzzReadRun writes manifest.json and results.json (an empty input: the
// file is missing) and reads the directory as dbgauge report, the catalog
// and the benchmark export do. A run that reads has a results.json that
// survives a round trip: encoded again, it reads back to the same value.
func FuzzReadRun(f *testing.F) {
	for _, dir := range storedRuns(f) {
		m, r := readOr(f, filepath.Join(dir, ManifestFile)), readOr(f, filepath.Join(dir, ResultsFile))
		f.Add(m, r)
		f.Add(m, []byte(nil))
		f.Add([]byte(nil), r)
	}
	f.Add([]byte(`{"experiment":"wisconsin"}`), []byte(`{"experiment":"wisconsin","complete":false,"error":"interrupted"}`))
	f.Add([]byte(`{}`), []byte(`{"experiment":"nosuch"}`))
	f.Add([]byte(`not json`), []byte(`{"experiment":"dsbench","cycles":null}`))
	f.Add([]byte(nil), []byte(nil))
	// One directory for the inputs of a process, one after the other: a
	// new one per input would cost more than reading it.
	root := f.TempDir()
	dir := filepath.Join(root, "run")
	f.Fuzz(func(t *testing.T, manifest, res []byte) {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write := func(name string, b []byte) {
			if len(b) > 0 {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		write(ManifestFile, manifest)
		write(ResultsFile, res)
		s, err := ReadRun(dir)
		if (s == nil) == (err == nil) {
			t.Fatalf("ReadRun = %v, %v: want a run or an error", s, err)
		}
		if len(manifest) == 0 && len(res) == 0 && err == nil {
			t.Fatal("ReadRun of an empty directory: no error")
		}
		e := readEntry(root, "run")
		if err != nil && e.Error == "" {
			t.Fatalf("catalog row %+v of an unreadable run (%v) says nothing", e, err)
		}
		if err != nil || s.Results == nil {
			return
		}
		BenchLines(dir)
		if _, ok := KindFor(s.Results); !ok {
			t.Fatalf("results of type %T have no kind", s.Results)
		}
		enc, err := json.Marshal(s.Results)
		if err != nil {
			t.Fatalf("encode the results read: %v", err)
		}
		write(ResultsFile, enc)
		back, err := ReadRun(dir)
		if err != nil {
			t.Fatalf("results.json encoded again (%s) does not read: %v", enc, err)
		}
		enc2, _ := json.Marshal(back.Results)
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("results.json changes in a round trip:\n%s\n%s", enc, enc2)
		}
	})
}

// FuzzReadJournal reads a journal of any content (torn lines, lines that
// are not entries), then appends an entry after it as a run would and
// reads that entry back.
func FuzzReadJournal(f *testing.F) {
	f.Add([]byte(`{"type":"warning","time":"2025-01-01T00:00:00Z","data":"x"}`+"\n"), "cold cache not emptied")
	f.Add([]byte(`{"type":"execution","time":"2025-01-01T00:00:00Z","data":{"query":1,"rep":0,"ms":1.5}}`+"\n"+`{"type":"execut`), "")
	f.Add([]byte("\n\n{}\nnull\n[]\n"), "a\nb")
	f.Add([]byte(nil), "é")
	path := filepath.Join(f.TempDir(), JournalFile)
	f.Fuzz(func(t *testing.T, data []byte, msg string) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		es, err := ReadJournal(path)
		if err != nil {
			t.Fatalf("ReadJournal(%q): %v", data, err)
		}
		if len(es) > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("ReadJournal(%q): %d entries", data, len(es))
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			// A torn last line: the next run's entries start on a line of their own.
			if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		j, err := OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Append(JournalWarning(msg)); err != nil {
			t.Fatal(err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		es, err = ReadJournal(path)
		if err != nil || len(es) == 0 {
			t.Fatalf("ReadJournal after an append: %d entries, %v", len(es), err)
		}
		last := es[len(es)-1]
		var got string
		if last.Type != "warning" || json.Unmarshal(last.Data, &got) != nil || (utf8.ValidString(msg) && got != msg) {
			t.Fatalf("last entry %s %s, want the warning %q", last.Type, last.Data, msg)
		}
	})
}

// FuzzReadHistogramLog reads an interval log of any content. A log that
// reads is written again and reads back to the same intervals.
func FuzzReadHistogramLog(f *testing.F) {
	base := int64(1_700_000_000_123)
	var hs []*hdr.Histogram
	for i, values := range [][]int64{{1000, 2000, 2_500_000}, {5, 5, 5, 7}} {
		h := hdr.New(1, int64(10*time.Minute), 3)
		for _, v := range values {
			h.RecordValue(v)
		}
		h.SetStartTimeMs(base + int64(i)*250)
		h.SetEndTimeMs(base + int64(i)*250 + 240)
		if i == 1 {
			h.SetTag("second")
		}
		hs = append(hs, h)
	}
	path := filepath.Join(f.TempDir(), "seed.hlog")
	if err := WriteHistogramLog(path, hs, "seed, nanoseconds"); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(bytes.SplitAfter(seed, []byte("\n"))[0])
	f.Add(seed[:len(seed)-20])
	f.Add([]byte("#[StartTime: 1700000000 (seconds since epoch)]\n0.000,1.000,2.0,HISTFAAAAA==\n"))
	f.Add([]byte("Tag=x,1.5,0.25,0.1,!!!\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "x.hlog")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		hs, err := ReadHistogramLog(p)
		if err != nil {
			return
		}
		if len(hs) == 0 {
			t.Fatalf("ReadHistogramLog(%q): no intervals and no error", b)
		}
		for _, h := range hs {
			if h == nil {
				t.Fatalf("ReadHistogramLog(%q): a nil interval", b)
			}
			h.ValueAtQuantile(50)
			h.Max()
			h.Mean()
		}
		p2 := filepath.Join(dir, "y.hlog")
		if err := WriteHistogramLog(p2, hs, "again"); err != nil {
			return // an interval that ends before it starts, a tag with a comma
		}
		back, err := ReadHistogramLog(p2)
		if err != nil {
			t.Fatalf("ReadHistogramLog(%q) reads, but written again it does not: %v", b, err)
		}
		if len(back) != len(hs) {
			t.Fatalf("ReadHistogramLog(%q): %d intervals, written again %d", b, len(hs), len(back))
		}
		for i := range hs {
			if !back[i].Equals(hs[i]) || back[i].Tag() != hs[i].Tag() {
				t.Fatalf("ReadHistogramLog(%q): interval %d changes in a round trip", b, i+1)
			}
		}
	})
}
