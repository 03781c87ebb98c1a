package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest.json larger than any dbgauge writes (a sparse file here; a
// link to /dev/zero alike) is refused by resume and tag after
// MaxManifestBytes+1 bytes, with a line that says so, instead of being
// read whole (and, from /dev/zero, until memory runs out).
func TestManifestReadBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ManifestFile)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxManifestBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadProgress(dir)
	if !errors.Is(err, ErrNotResumable) || !strings.Contains(err.Error(), "larger than 16384 KiB") {
		t.Errorf("resume of a huge manifest: %v", err)
	}
	if _, _, err := Retag(dir, []string{"x"}, nil); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("tag of a huge manifest: %v", err)
	}
	b, err := ReadBounded(path, 10)
	if !errors.Is(err, ErrTooLarge) || b != nil {
		t.Errorf("ReadBounded past its bound: %d bytes, %v", len(b), err)
	}
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadBounded(path, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadBounded at its bound: %q, %v", b, err)
	}
}
