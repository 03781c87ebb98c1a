package live

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRequestsRoundTrip: requests written by Ask are read back whole and
// in order from an offset; a line still being written waits for the next
// read; a request that is none or several of mark, stop and abort is
// refused without writing.
func TestRequestsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ControlFile)
	if err := Ask(dir, Request{}); err == nil {
		t.Error("an empty request was taken")
	}
	if err := Ask(dir, Request{Stop: true, Abort: true}); err == nil {
		t.Error("a request of both stop and abort was taken")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a refused request was written")
	}
	rs, off, err := ReadRequests(path, 0)
	if err != nil || len(rs) != 0 || off != 0 {
		t.Fatalf("missing file: %v %d %v", rs, off, err)
	}
	for _, r := range []Request{{Mark: "one"}, {Stop: true}} {
		if err := Ask(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"abort":tr`) // half a line: a viewer still writing
	f.Close()
	rs, off, err = ReadRequests(path, 0)
	if err != nil || len(rs) != 2 || rs[0].Mark != "one" || !rs[1].Stop || rs[0].Time.IsZero() {
		t.Fatalf("read %+v, %v", rs, err)
	}
	f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("ue}\n")
	f.Close()
	rs, _, err = ReadRequests(path, off)
	if err != nil || len(rs) != 1 || !rs[0].Abort {
		t.Fatalf("after the rest of the line: %+v, %v", rs, err)
	}
}

// TestNilWriter: a run without a stream emits into a nil Writer.
func TestNilWriter(t *testing.T) {
	var w *Writer
	w.Emit(Event{Kind: KindLine, Text: "x"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
