package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// Setup is what every experiment needs besides its plan: where to measure
// and where to write, and what goes into the manifest.
type Setup struct {
	// DB is the engine URL; "" means the experiment's embedded default.
	DB string
	// Dir is the run directory, checked writable and empty by the caller.
	Dir string
	// Command and Config go into the manifest (passwords already redacted).
	Command []string
	Config  map[string]any
	Version string
}

// opened is an engine session with its run directory and manifest.
type opened struct {
	e   dbms.Engine
	url string
	run *results.Run
	man *results.Manifest
}

// open opens the engine and creates the run directory with its manifest. A
// server's URL is opened before anything is written, so bad input leaves
// nothing behind; the embedded default (embedded(dir) gives its URL) lives
// in the run directory, which is removed again if it cannot be opened. check
// runs on the opened engine (its abilities say what it can do): before
// anything is written for a server, right after opening the embedded
// default, whose run directory is then removed again when check fails. The
// caller closes e and run.
func open(ctx context.Context, s Setup, experiment string, seed uint64, embedded func(absDir string) string, check func(e dbms.Engine) error) (*opened, error) {
	started := time.Now()
	o := &opened{url: s.DB}
	if s.DB == "" {
		abs, err := filepath.Abs(s.Dir)
		if err != nil {
			return nil, err
		}
		o.url = embedded(abs)
	}
	u, err := dbms.ParseURL(o.url)
	if err != nil {
		return nil, err
	}
	if s.DB != "" {
		if o.e, err = dbms.Open(ctx, o.url); err != nil {
			return nil, err
		}
		if err := check(o.e); err != nil {
			o.e.Close()
			return nil, err
		}
	}
	if o.run, err = results.Create(s.Dir); err != nil {
		if o.e != nil {
			o.e.Close()
		}
		return nil, err
	}
	if o.e == nil {
		if o.e, err = dbms.Open(ctx, o.url); err != nil {
			o.run.Close()
			os.RemoveAll(s.Dir) // nothing was measured: leave nothing behind
			return nil, err
		}
		if err := check(o.e); err != nil {
			o.e.Close()
			o.run.Close()
			os.RemoveAll(s.Dir)
			return nil, err
		}
	}
	info, err := o.e.Info(ctx)
	if err != nil {
		o.close()
		return nil, fmt.Errorf("read %s version and settings: %w", o.e.Name(), err)
	}
	o.man = &results.Manifest{
		Experiment: experiment, Command: s.Command, Config: s.Config, Dbgauge: s.Version, Go: goVersion(),
		Started: started.UTC(), Seed: seed, DB: u.Redacted(), Engine: info, System: sysinfo.Describe(o.run.Dir),
	}
	if err := o.run.WriteJSON("manifest.json", o.man); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// close ends the session and the journal; closing twice is harmless.
func (o *opened) close() {
	if o.e != nil {
		o.e.Close()
		o.e = nil
	}
	o.run.Close()
}

func noCheck(dbms.Engine) error { return nil }
