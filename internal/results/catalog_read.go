package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Names of the two files that make a directory a run directory.
const (
	ResultsFile  = "results.json"
	ManifestFile = "manifest.json"
)

// Stored is a run directory read back: its manifest and its results.json
// decoded into the type of its experiment. Either may be missing (a run
// that crashed before results.json, or one written before manifests had
// everything), but not both.
type Stored struct {
	Dir        string
	Experiment string
	Manifest   *Manifest // nil when manifest.json is missing or unreadable
	// Results is of the registered type of its experiment (see Kind); nil
	// when results.json is missing.
	Results Results
	// Complete and Error are results.json's own fields (every experiment
	// has them).
	Complete bool
	Error    string
}

// ReadRun reads the run directory dir. A missing results.json is not an
// error when manifest.json is there (the run did not finish); a
// results.json that cannot be decoded is.
func ReadRun(dir string) (*Stored, error) {
	s := &Stored{Dir: dir}
	mb, merr := os.ReadFile(filepath.Join(dir, ManifestFile))
	if merr == nil {
		var m Manifest
		if err := json.Unmarshal(mb, &m); err == nil {
			s.Manifest, s.Experiment = &m, m.Experiment
		}
	}
	rb, rerr := os.ReadFile(filepath.Join(dir, ResultsFile))
	if errors.Is(rerr, fs.ErrNotExist) {
		if merr != nil {
			return nil, fmt.Errorf("%s: neither %s nor %s (is it a dbgauge run directory?)", dir, ResultsFile, ManifestFile)
		}
		return s, nil
	}
	if rerr != nil {
		return nil, fmt.Errorf("read %s: %w", ResultsFile, rerr)
	}
	var head struct {
		Experiment string `json:"experiment"`
		Complete   bool   `json:"complete"`
		Error      string `json:"error"`
	}
	if err := json.Unmarshal(rb, &head); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ResultsFile), err)
	}
	s.Experiment, s.Complete, s.Error = head.Experiment, head.Complete, head.Error
	k, err := KindOf(head.Experiment)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ResultsFile), err)
	}
	res := k.New()
	if err := json.Unmarshal(rb, res); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ResultsFile), err)
	}
	s.Results = res
	return s, nil
}

// IsRunDir tells whether dir holds a run: results.json or manifest.json.
func IsRunDir(dir string) bool {
	for _, name := range []string{ResultsFile, ManifestFile} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// engineOf is the engine name and version of a stored run: the manifest's
// where it has them, else results.json's (A/B runs name both variants).
func (s *Stored) engineOf() (name, version string) {
	if s.Manifest != nil {
		name, version = s.Manifest.Engine.Engine, s.Manifest.Engine.Version
	}
	if el, ok := s.Results.(EngineLabeler); ok {
		return el.EngineLabel()
	}
	if s.Results != nil {
		h := s.Results.Head()
		name, version = or(name, h.Engine), or(version, h.EngineVersion)
	}
	return name, version
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
