package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrTooLarge is the failure of ReadBounded for a file beyond its bound.
var ErrTooLarge = errors.New("too large")

// ReadBounded reads the file at path, at most max bytes of it: a larger
// file (or one without end: /dev/zero, a FIFO) fails with ErrTooLarge
// after max+1 bytes, never read until memory runs out. For the small
// files a command is given or a run keeps (--config, TLS certificates, a
// manifest).
func ReadBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: %w: larger than %d KiB", path, ErrTooLarge, max>>10)
	}
	return b, nil
}

// MaxManifestBytes bounds the manifest.json dbgauge reads back (resume,
// tag, the catalog): one is a few KiB (command, configuration, versions,
// settings, machine), so 16 MiB leaves room for any engine's settings
// while a file without end (a link to /dev/zero) fails at once.
const MaxManifestBytes = 16 << 20

// readManifestBytes reads the manifest.json of the run in dir, bounded.
func readManifestBytes(dir string) ([]byte, error) {
	return ReadBounded(filepath.Join(dir, ManifestFile), MaxManifestBytes)
}
