// Package browser opens a page in headless Chromium through the DevTools
// protocol, for the report's browser test: every request the page made,
// what a script run in the page returns, its console errors, and a
// screenshot of the whole page. It drives Debian's chromium package; it
// never fetches anything itself.
package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Flags are the ones the issue names for a quiet headless Chromium, plus
// a resolver that resolves nothing: a page that tried to fetch from the
// network would fail, and its request would still be recorded.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1280,900",
	// Chromium 111 and later refuse a DevTools WebSocket whose Origin
	// header they were not told to allow; ours is the loopback origin.
	"--remote-allow-origins=" + devtoolsOrigin,
}

// devtoolsOrigin is the Origin our DevTools client sends.
const devtoolsOrigin = "http://127.0.0.1"

// Result is what one page load showed.
type Result struct {
	// Requests are the URLs of every request the page made, its own
	// included.
	Requests []string
	// Errors are console errors and uncaught exceptions.
	Errors []string
	// Value is what the script given to Open returned, as JSON.
	Value json.RawMessage
	// Screenshot is a PNG of the whole page.
	Screenshot []byte
}

// Binary is the Chromium executable, or an error saying how to get it.
func Binary() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("chromium not found: install Debian's chromium package (make test does, as root)")
}

// Open loads the file at path, waits for its load event, runs script (an
// expression) in the page and takes a screenshot.
func Open(ctx context.Context, path, script string) (*Result, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "dbgauge-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	args := append(append([]string{}, Flags...), "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd := exec.Command(bin, args...)
	// Chromium's renderer, GPU and zygote processes are its children: a
	// group of their own lets one kill end them all.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	drained := make(chan struct{})
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-drained // every reader of the pipe is done before Wait closes it
		cmd.Wait()
	}()
	stop := context.AfterFunc(ctx, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	defer stop()
	port, err := devtoolsPort(stderr, drained)
	if err != nil {
		return nil, err
	}
	ws, err := pageSocket(ctx, port)
	if err != nil {
		return nil, err
	}
	c, err := dial(ws)
	if err != nil {
		return nil, err
	}
	defer c.close()
	return c.load(ctx, "file://"+abs, script)
}

var listening = regexp.MustCompile(`DevTools listening on ws://127\.0\.0\.1:(\d+)/`)

// devtoolsPort reads Chromium's stderr until it says where DevTools
// listens, then keeps draining it so that Chromium never blocks on it;
// drained is closed when stderr is read to its end.
func devtoolsPort(stderr io.Reader, drained chan<- struct{}) (string, error) {
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				io.Copy(io.Discard, stderr)
				close(drained)
			}()
			return m[1], nil
		}
		seen = append(seen, sc.Text())
	}
	close(drained)
	return "", fmt.Errorf("chromium exited before its DevTools endpoint was up: %s", strings.Join(seen, " | "))
}

// pageSocket is the DevTools WebSocket URL of the first page target.
func pageSocket(ctx context.Context, port string) (string, error) {
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://127.0.0.1:"+port+"/json/list", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, t := range targets {
				if t.Type == "page" && t.WebSocketDebuggerURL != "" {
					return t.WebSocketDebuggerURL, nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no page target from chromium's DevTools: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
