package results

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Unpacking the archive gives back every file of the run directory, same
// names, same bytes, in lexical order; packing again gives the same bytes.
func TestArchiveRoundTrip(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "20260101T000000Z-storage")
	want := map[string]string{
		"manifest.json":           "{\"experiment\": \"storage\"}\n",
		"results.json":            "{}\n",
		"storage.txt":             "test  rate\n",
		"journal.jsonl":           "",
		"histograms/scale-1.hlog": string(bytes.Repeat([]byte{0, 1, 2, 255}, 5000)),
	}
	for name, body := range want {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path, err := Archive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != dir+".tar.gz" {
		t.Errorf("archive at %s, want beside the directory", path)
	}
	got, order := unpack(t, path)
	wantNames := []string{
		"20260101T000000Z-storage/", "20260101T000000Z-storage/histograms/",
		"20260101T000000Z-storage/histograms/scale-1.hlog", "20260101T000000Z-storage/journal.jsonl",
		"20260101T000000Z-storage/manifest.json", "20260101T000000Z-storage/results.json",
		"20260101T000000Z-storage/storage.txt",
	}
	if !reflect.DeepEqual(order, wantNames) {
		t.Errorf("entries %q\nwant %q", order, wantNames)
	}
	for name, body := range want {
		if got["20260101T000000Z-storage/"+name] != body {
			t.Errorf("%s: contents differ after the round trip", name)
		}
	}
	first, _ := os.ReadFile(path)
	if _, err := Archive(dir); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	if !bytes.Equal(first, second) {
		t.Error("packing the same directory twice gave different archives")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 2 {
		t.Errorf("beside the run directory: %v, want the directory and its archive only", entries)
	}
}

func TestArchiveRefusesAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	if _, err := Archive(f); err == nil {
		t.Error("a file was archived as a run directory")
	}
	if _, err := Archive(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing directory was archived")
	}
}

func unpack(t *testing.T, path string) (files map[string]string, order []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	files = map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, order
		}
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, h.Name)
		if filepath.IsAbs(h.Name) {
			t.Errorf("absolute name %s in the archive", h.Name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = string(b)
	}
}
