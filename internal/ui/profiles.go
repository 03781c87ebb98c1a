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
	Experiment string            `json:"experiment"`
	Values     map[string]string `json:"values"`
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
	return p, nil
}

// saveProfile answers POST /new/{experiment}/profiles: the form's values
// saved under the name in the field "profile", then the form loaded from
// it. A bad name is one line and writes nothing; so are values the
// command line refuses (the form comes back with its line): a profile
// always launches.
func (s *server) saveProfile(w http.ResponseWriter, r *http.Request) {
	e, v, ok := s.posted(w, r)
	if !ok {
		return
	}
	name := r.PostForm.Get("profile")
	if err := checkProfileName(name); err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	if p := s.page(e, v); p.Problem != "" {
		render(w, http.StatusBadRequest, "form.html", p)
		return
	}
	p := profile{Experiment: e.Name, Values: map[string]string{}}
	for _, f := range e.Flags {
		if val, ok := v[f.Name]; ok && val != f.Default {
			p.Values[f.Name] = val
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".new-*")
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
