package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// profile is a form's values saved under a name: only the values that
// differ from the defaults, as the command shown has them.
type profile struct {
	Experiment string `json:"experiment"`
	// Values hold no password: an engine URL's is taken out, a secret
	// flag's value is empty (hideSecret).
	Values map[string]string `json:"values"`
	// Sealed are the whole values that held a password, by flag, sealed
	// under the key of the directory of runs (seal.go).
	Sealed map[string]string `json:"sealed,omitempty"`
	// clear are whole values of a profile saved in clear that a
	// read-only interface does not seal (it writes nothing), by flag.
	clear map[string]string
}

// profilesDir holds the profiles, one directory per experiment, in the
// directory of runs: hidden, so that listing runs never looks inside.
const profilesDir = ".dbgauge-ui/profiles"

// profileName is a name a profile may have: it is a file name.
var profileName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$`)

func checkProfileName(name string) error {
	if !profileName.MatchString(name) {
		return fmt.Errorf("profile name %q: use up to 64 letters, digits, - _ and . (not first), e.g. pg-small", name)
	}
	return nil
}

func (s *server) profileDir(e *Experiment) string {
	return filepath.Join(s.opt.Dir, filepath.FromSlash(profilesDir), e.Name)
}

// profiles are the names of e's saved profiles, sorted.
func (s *server) profiles(e *Experiment) ([]string, error) {
	entries, err := os.ReadDir(s.profileDir(e))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var names []string
	for _, d := range entries {
		if n, ok := strings.CutSuffix(d.Name(), ".json"); ok && !d.IsDir() && checkProfileName(n) == nil {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, err
}

// loadProfile reads e's profile name.
func (s *server) loadProfile(e *Experiment, name string) (profile, error) {
	var p profile
	if err := checkProfileName(name); err != nil {
		return p, err
	}
	b, err := os.ReadFile(filepath.Join(s.profileDir(e), name+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return p, fmt.Errorf("no profile %q of %s", name, e.Name)
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("profile %s of %s: %v", name, e.Name, err)
	}
	return s.sealOld(e, name, p)
}

// sealOld seals the passwords a profile saved by an earlier dbgauge holds
// in clear, and writes it again, so that a clear password lasts until the
// profile is first loaded (by an interface that may write: a read-only
// one keeps them unseen in memory only).
func (s *server) sealOld(e *Experiment, name string, p profile) (profile, error) {
	changed := false
	for _, f := range e.Flags {
		val, ok := p.Values[f.Name]
		if _, sealed := p.Sealed[f.Name]; !ok || sealed {
			continue
		}
		shown, secret := hideSecret(f, val)
		switch {
		case !secret:
		case s.opt.ReadOnly:
			if p.clear == nil {
				p.clear = map[string]string{}
			}
			p.Values[f.Name], p.clear[f.Name] = shown, val
		default:
			if err := s.sealValue(e, name, &p, f.Name, shown, val); err != nil {
				return p, fmt.Errorf("profile %s of %s: its password in clear was not sealed: %w", name, e.Name, err)
			}
			changed = true
		}
	}
	if !changed {
		return p, nil
	}
	return p, writeProfile(s.profileDir(e), name, p)
}

// sealValue keeps flag's whole value sealed in p and what is shown of it
// in clear.
func (s *server) sealValue(e *Experiment, name string, p *profile, flag, shown, whole string) error {
	sealed, err := s.sealer().seal(whole, sealedPlace(e.Name, name, flag))
	if err != nil {
		return err
	}
	if p.Sealed == nil {
		p.Sealed = map[string]string{}
	}
	p.Values[flag], p.Sealed[flag] = shown, sealed
	return nil
}

// saveProfile answers POST /new/{experiment}/profiles: the form's values
// saved under the name in the field "profile", then the form loaded from
// it. A bad name is one line and writes nothing; so are values the
// command line refuses (the form comes back with its line): a profile
// always launches.
func (s *server) saveProfile(w http.ResponseWriter, r *http.Request) {
	e, v, k, ok := s.posted(w, r)
	if !ok {
		return
	}
	name := r.PostForm.Get("profile")
	if err := checkProfileName(name); err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	if p := s.page(e, v, k); p.Problem != "" {
		render(w, http.StatusBadRequest, "form.html", p)
		return
	}
	p := profile{Experiment: e.Name, Values: map[string]string{}}
	for _, f := range e.Flags {
		val, ok := v[f.Name]
		if !ok || val == f.Default {
			continue
		}
		p.Values[f.Name] = val
		if shown, secret := hideSecret(f, val); secret {
			if err := s.sealValue(e, name, &p, f.Name, shown, val); err != nil {
				showProblem(w, http.StatusInternalServerError, "the profile was not saved: its password could not be sealed: "+err.Error())
				return
			}
		}
	}
	if err := writeProfile(s.profileDir(e), name, p); err != nil {
		showProblem(w, http.StatusInternalServerError, "the profile was not saved: "+err.Error())
		return
	}
	http.Redirect(w, r, "/new/"+url.PathEscape(e.Name)+"?profile="+url.QueryEscape(name), http.StatusSeeOther)
}

// writeProfile writes p whole or not at all (a temporary file renamed).
func writeProfile(dir, name string, p profile) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".new-*") // 0600
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name+".json"))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
