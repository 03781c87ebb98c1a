package server

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStopStartKeepsPort: a stopped instance started again in its
// directory keeps its port, password and data, so the URL given out
// before still works; its port taken by another program, start names
// the port and --port; --port moves it; a directory holding data with no
// record (an instance made before passwords) is refused.
func TestStopStartKeepsPort(t *testing.T) {
	for _, engine := range []string{"postgres", "mariadb"} {
		t.Run(engine, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			dir := t.TempDir()
			inst, err := Start(ctx, engine, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { Stop(engine, dir) })
			if err := inst.Stop(); err != nil {
				t.Fatal(err)
			}
			again, err := Start(ctx, engine, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if again.Port != inst.Port || again.URL != inst.URL || again.Password != inst.Password {
				t.Errorf("started again: port %d, URL %s; want the instance's port %d and URL %s", again.Port, again.URL, inst.Port, inst.URL)
			}
			if err := again.Stop(); err != nil {
				t.Fatal(err)
			}

			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(inst.Port))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Start(ctx, engine, dir, Options{})
			l.Close()
			if !errors.Is(err, ErrPortTaken) || !strings.Contains(err.Error(), "port "+strconv.Itoa(inst.Port)) || !strings.Contains(err.Error(), "--port") {
				t.Errorf("start with the port taken: %v; want ErrPortTaken naming port %d and --port", err, inst.Port)
			}
			port, err := FreePort()
			if err != nil {
				t.Fatal(err)
			}
			moved, err := Start(ctx, engine, dir, Options{Port: port})
			if err != nil {
				t.Fatal(err)
			}
			if moved.Port != port || moved.Password != inst.Password {
				t.Errorf("moved: port %d, want %d, and the same password", moved.Port, port)
			}
			if err := moved.Stop(); err != nil {
				t.Fatal(err)
			}

			os.Remove(filepath.Join(dir, stateFile))
			if _, err := Start(ctx, engine, dir, Options{}); !errors.Is(err, ErrLegacy) {
				t.Errorf("data without a record: %v, want ErrLegacy", err)
			}
		})
	}
}
