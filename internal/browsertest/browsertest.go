// Package browsertest is what the browser tests share: a headless
// Chromium driven by chromedp that can reach nothing but the test's own
// server, and screenshots kept as artifacts for a person to look at. Only
// tests import it.
package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbgauge/dbgauge/internal/report/browser"
)

// Bound is how long one test may use its browser.
const Bound = 2 * time.Minute

// Browser starts a headless Chromium for t, ended with it and after Bound
// at the latest. Every name but the loopback address fails to resolve, so
// a page that tried to fetch anything from elsewhere would fail. Without
// Debian's chromium package the test fails: make test installs it.
func Browser(t *testing.T) context.Context {
	t.Helper()
	chromium, err := browser.Binary()
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancel := context.WithTimeout(ctx, Bound)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	return ctx
}

// Screenshot keeps a full-page screenshot of what the browser shows as
// the artifact name.
//
// The window is first made as tall as the page, for a second and a bit:
// the live page redraws only the charts in view, so a chart below the
// window would show in a full-page picture as it was first drawn.
func Screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[3]int64](`[window.innerWidth, window.innerHeight, document.documentElement.scrollHeight]`))
	taller := err == nil && size[2] > size[1]
	if taller {
		if _, err = chromedp.Run(ctx, chromedp.EmulateViewport(size[0], size[2])); err == nil {
			_, err = chromedp.Run(ctx, chromedp.Sleep(1200*time.Millisecond))
		}
	}
	var png []byte
	if err == nil {
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	}
	if err == nil && taller {
		_, err = chromedp.Run(ctx, chromedp.EmulateViewport(size[0], size[1]))
	}
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	SaveArtifact(t, name, png)
}

// SaveArtifact writes b as the artifact name: into $DBGAUGE_ARTIFACTS, or
// artifacts/ at the repository's root.
func SaveArtifact(t *testing.T, name string, b []byte) {
	t.Helper()
	dir := os.Getenv("DBGAUGE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(root(t), "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	t.Logf("screenshot: %s (%d bytes)", abs, len(b))
}

// root is the repository's root: the nearest directory above the test's
// own that holds go.mod.
func root(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", dir)
		}
	}
}
