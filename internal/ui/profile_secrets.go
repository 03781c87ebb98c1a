package ui

import (
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// A profile keeps its passwords sealed (seal.go) and never sends one back
// into a page: a loaded form shows the value without its password (an
// engine URL as user@host, a secret flag empty) and says that a password
// is saved; the form posts the profile's name in the field "saved", and
// a field still holding what was shown gets the saved value again on the
// server, for the check, the launch and a new profile alike. A field
// changed in any way is taken as typed, so a password never goes to
// another server than the one it was saved for.

// savedField is the form's field naming the profile whose secrets it
// keeps.
const savedField = "saved"

// hideSecret is val as a profile stores and a page shows it, and whether
// it held a secret: a secret flag's whole value, or an engine URL's
// password.
func hideSecret(f Flag, val string) (shown string, secret bool) {
	if f.Secret {
		return "", val != ""
	}
	shown = dbms.StripPasswords(val)
	return shown, shown != val
}

// kept are the secrets of a loaded profile that a form keeps unseen: by
// flag, the value shown and the whole value.
type kept struct {
	profile     string
	shown, full map[string]string
}

// sealedPlace binds a sealed value to its profile and flag: it opens
// nowhere else.
func sealedPlace(experiment, name, flag string) string {
	return experiment + "/" + name + "/" + flag
}

// unseal opens the sealed values of profile name of e; a value that does
// not open is left out and named in the note, with the fix.
func (s *server) unseal(e *Experiment, name string, p profile) (k kept, note string) {
	k = kept{profile: name, shown: map[string]string{}, full: map[string]string{}}
	for flag, full := range p.clear {
		k.shown[flag], k.full[flag] = p.Values[flag], full
	}
	for flag, sealed := range p.Sealed {
		full, err := s.sealer().open(sealed, sealedPlace(e.Name, name, flag))
		if err != nil {
			note += "the saved password of --" + flag + " could not be read (" + err.Error() + "): type it again. "
			continue
		}
		k.shown[flag], k.full[flag] = p.Values[flag], full
	}
	return k, note
}

// fill puts the kept secrets back into v where the field still holds
// what was shown.
func (k kept) fill(v values) {
	for flag, shown := range k.shown {
		if got, ok := v[flag]; ok && got == shown {
			v[flag] = k.full[flag]
		}
	}
}

// hide takes the kept secrets out of the page's values again, and says
// which are saved.
func (k kept) hide(p *formPage) {
	if k.profile == "" {
		return
	}
	p.SavedFrom = k.profile
	vals := values{}
	for f, v := range p.Values {
		vals[f] = v
	}
	for _, f := range p.Experiment.Flags {
		if full, ok := k.full[f.Name]; ok && vals[f.Name] == full {
			vals[f.Name] = k.shown[f.Name]
			p.Saved = append(p.Saved, f.Name)
		}
	}
	p.Values = vals
}

func (s *server) sealer() sealer {
	return sealer{path: filepath.Join(s.opt.Dir, filepath.FromSlash(profilesKey))}
}
