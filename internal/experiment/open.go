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
	// Resume, when not nil, continues the stopped run in Dir (its journal
	// and manifest are kept and appended to): the experiment skips the
	// units Resume.Done and takes their measurements back from the journal.
	Resume *results.Progress
	// Pause is --pause-on-error: how a unit that fails with a fault is
	// tried again instead of ending the run.
	Pause PausePolicy
	// Tags label a new run (its manifest keeps them); a resumed run keeps
	// its manifest's.
	Tags []string
	// Live is the run's live stream and its viewers' requests (nil: none).
	Live *Live
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
	if s.Resume != nil {
		return o.resume(ctx, s, experiment, check)
	}
	if s.DB != "" {
		if o.e, err = openControl(ctx, o.url); err != nil {
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
		if o.e, err = openControl(ctx, o.url); err != nil {
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
	// Read before any session turns instrumentation on for itself: what
	// the server gives a new session, and so a load's clients.
	instr, err := readInstrumentation(ctx, o.e)
	if err != nil {
		o.close()
		return nil, err
	}
	o.man = &results.Manifest{
		Experiment: experiment, Command: s.Command, Config: s.Config, Dbgauge: s.Version, Go: goVersion(),
		Started: started.UTC(), Seed: seed, DB: u.Redacted(), Engine: info, System: sysinfo.Describe(o.run.Dir), Tags: results.NormalizeTags(s.Tags),
	}
	addInstrumentation(o.man, results.NewSession, instr)
	if err := o.run.WriteJSON("manifest.json", o.man); err != nil {
		o.close()
		return nil, err
	}
	// Only now, with the run directory legitimately there: bad input
	// (an engine refused, an embedded default removed again) leaves no
	// stream behind. Every experiment but storage comes here.
	s.Live.attach(o.run, experiment, o.e.Name(), false)
	return o, nil
}

// resume opens the engine of a stopped run and its run directory as they
// are: the journal is appended to, the manifest keeps its start and gets
// no end until the run ends again, and nothing is removed on failure (the
// run directory holds what was measured).
func (o *opened) resume(ctx context.Context, s Setup, experiment string, check func(e dbms.Engine) error) (*opened, error) {
	var err error
	if o.run, err = results.Create(s.Dir); err != nil {
		return nil, err
	}
	if o.e, err = openControl(ctx, o.url); err == nil {
		if err = check(o.e); err != nil {
			o.e.Close()
			o.e = nil
		}
	}
	if err != nil {
		o.run.Close()
		return nil, err
	}
	// The notes an experiment writes as it ends come from its results,
	// which take the first part's back: written again, not twice.
	o.man = s.Resume.Manifest
	o.man.Finished, o.man.Notes = nil, nil
	now := time.Now().UTC()
	o.run.Journal().Append(results.ResumedEntry{At: now})
	s.Resume.Resumed = append(s.Resume.Resumed, now)
	if info, err := o.e.Info(ctx); err == nil && info.Version != o.man.Engine.Version {
		o.man.Notes = append(o.man.Notes, fmt.Sprintf("resumed %s on %s %s; the run started on %s", now.Format(time.RFC3339), info.Engine, info.Version, o.man.Engine.Version))
	}
	if err := o.run.WriteJSON(results.ManifestFile, o.man); err != nil {
		o.close()
		return nil, err
	}
	s.Live.attach(o.run, experiment, o.e.Name(), true)
	return o, nil
}

// reopen replaces the engine session with a new one (a fresh control
// session, or one after the server went away); on failure there is none.
func (o *opened) reopen(ctx context.Context) error {
	if o.e != nil {
		o.e.Close()
		o.e = nil
	}
	e, err := openControl(ctx, o.url)
	if err != nil {
		return fmt.Errorf("reconnect: %w", err)
	}
	o.e = e
	return nil
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

// openControl opens an experiment's own session (population, checks,
// timing). On a replicated cluster (a URL naming several hosts) it goes
// to a node that takes writes, and its reads wait for what the other
// nodes committed (dbms.SyncReader), so a check after a cycle sees every
// transaction the clients committed on any node.
func openControl(ctx context.Context, url string) (dbms.Engine, error) {
	e, err := dbms.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	if u, perr := dbms.ParseURL(url); perr == nil && u.Nodes() > 1 {
		if sr, ok := e.(dbms.SyncReader); ok {
			if err := sr.SyncReads(ctx); err != nil {
				e.Close()
				return nil, fmt.Errorf("make the control session's reads wait for the cluster: %w", err)
			}
		}
	}
	return e, nil
}
