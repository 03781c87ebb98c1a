package cli

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWritePageToPipe: --html naming a named pipe (or a device such as
// /dev/stdout) gets the page written into it; the pipe stays a pipe. The
// atomic write through a renamed temporary file replaced such a target
// with a regular file.
func TestWritePageToPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "page")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := writePage(fifo, []byte("<html>page</html>")); err != nil {
		t.Fatal(err)
	}
	// Checked first: when the pipe was replaced, its reader waits for ever.
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("after the write %s is %v (%v), want still a named pipe", fifo, st.Mode(), err)
	}
	if b := <-got; string(b) != "<html>page</html>" {
		t.Errorf("the pipe's reader got %q", b)
	}
}
