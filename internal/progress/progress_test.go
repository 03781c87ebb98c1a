package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/live"
)

// TestTee: permanent lines go to the writer and, while teed, into the
// live stream as line events; transient live lines do not, and nothing
// goes in after the tee ends.
func TestTee(t *testing.T) {
	path := filepath.Join(t.TempDir(), live.File)
	w, err := live.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := New(&out)
	p.Line("before")
	p.Tee(w)
	p.Line("scale %d done", 1)
	p.Live("transient %d", 1)
	p.Tee(nil)
	p.Line("after")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], `"kind":"line"`) || !strings.Contains(lines[0], `"text":"scale 1 done"`) {
		t.Errorf("stream:\n%s", b)
	}
	if got := out.String(); !strings.Contains(got, "before\n") || !strings.Contains(got, "scale 1 done\n") || !strings.Contains(got, "after\n") {
		t.Errorf("printed:\n%s", got)
	}
}
