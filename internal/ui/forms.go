package ui

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Experiment is what a run form is made of: one experiment command of
// the command line, read from its flag set (internal/cli describes every
// registered one; ui must not import cli).
type Experiment struct {
	Name, Short, Long string
	// Flags are the flags a form sets, grouped (a group's flags follow
	// each other); --out, --config and --help are not among them.
	Flags []Flag
}

// Flag is one flag of an experiment command, as a form field.
type Flag struct {
	Name string
	// Kind is one of the Kind constants: how the field asks for the value.
	Kind string
	// Default is the value the command line has without the flag, as it
	// would be written there ("" for none).
	Default, Usage string
	// Group is the title of the fieldset the field goes in.
	Group string
	// Choices are the values a KindChoice (one of them) or a KindList of
	// choices (some of them) accepts.
	Choices []string
	// Hidden flags are kept out of the forms, as out of the help.
	Hidden bool
	// Secret values are typed unseen and hidden in the command shown.
	Secret bool
	// File values name files (FILE or FILE@WEIGHT, one a line when
	// repeated): the form can upload them (uploads.go).
	File bool
}

// The kinds of a flag's field.
const (
	KindBool     = "bool"     // a checkbox
	KindInt      = "int"      // a whole number
	KindFloat    = "float"    // a number
	KindDuration = "duration" // 60s, 1m30s
	KindChoice   = "choice"   // one of Choices
	KindList     = "list"     // comma-separated values
	KindRepeated = "repeated" // the flag given once per value: one value a line
	KindText     = "text"     // anything else
)

// Experiments are the command line's experiment commands, as the forms
// need them (internal/cli implements it).
type Experiments interface {
	// Forms describes every registered experiment command, in name order.
	Forms() []Experiment
	// Check answers args (an experiment's name, then its flags) as the
	// command line would before it starts anything: "" when it would
	// start the run, else the one line it prints for the bad input.
	Check(args []string) string
	// Redact hides the passwords and secrets of args (for the command
	// shown and the jobs page).
	Redact(args []string) []string
	// Child is args as a launched run's command line and environment
	// ("NAME=value" items): every local user reads a process's command
	// line, so passwords and secrets go into its environment. Refused,
	// the one line the command line would print.
	Child(args []string) (argv, env []string, err error)
}

// form is the experiment's form (nil when there is none).
func (s *server) form(name string) *Experiment {
	if s.opt.Experiments == nil {
		return nil
	}
	for _, e := range s.opt.Experiments.Forms() {
		if e.Name == name {
			return &e
		}
	}
	return nil
}

// values are a form's fields by flag name: the text as typed, "true" or
// "false" for a checkbox, one value a line for a repeated flag.
type values map[string]string

// defaults are the values of a form nobody touched.
func defaults(e *Experiment) values {
	v := values{}
	for _, f := range e.Flags {
		v[f.Name] = f.Default
	}
	return v
}

// fieldName is a flag's field in the HTML form: prefixed, so that no flag
// name can collide with the form's own fields (csrf, profile).
func fieldName(flag string) string { return "flag." + flag }

// readValues reads the form's fields from a posted form; a field that is
// absent (a checkbox left unticked) is false for a checkbox and the
// default for anything else.
func readValues(e *Experiment, form url.Values) values {
	v := values{}
	for _, f := range e.Flags {
		if f.Hidden {
			continue
		}
		got, sent := form[fieldName(f.Name)]
		switch {
		case f.Kind == KindBool:
			v[f.Name] = "false"
			if sent && slices.Contains(got, "true") {
				v[f.Name] = "true"
			}
		case !sent:
			v[f.Name] = f.Default
		default:
			v[f.Name] = strings.ReplaceAll(got[0], "\r\n", "\n")
		}
	}
	return v
}

// args is the command line of the values: the experiment's name, then
// --flag=value for every flag whose value is not its default, in the
// form's order. The form is written --flag=value so that no value, even
// one starting with a dash, reads as another flag.
func args(e *Experiment, v values) []string {
	out := []string{e.Name}
	for _, f := range e.Flags {
		val, ok := v[f.Name]
		if f.Hidden || !ok || val == f.Default {
			continue
		}
		switch f.Kind {
		case KindBool:
			if val == "true" {
				out = append(out, "--"+f.Name)
			} else {
				out = append(out, "--"+f.Name+"=false")
			}
		case KindRepeated:
			for _, item := range strings.Split(val, "\n") {
				if item = strings.TrimSpace(item); item != "" {
					out = append(out, "--"+f.Name+"="+item)
				}
			}
		default:
			out = append(out, "--"+f.Name+"="+val)
		}
	}
	return out
}

// plainWord is an argument a shell reads as it is written.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// commandLine is args as one line a shell runs: "dbgauge " and each
// argument, single-quoted where it needs to be.
func commandLine(args []string) string {
	var b strings.Builder
	b.WriteString("dbgauge")
	for _, a := range args {
		b.WriteByte(' ')
		if plainWord.MatchString(a) {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// formPage is what the form template is given.
type formPage struct {
	Experiment *Experiment
	Values     values
	// Command is the equivalent command line (passwords hidden); Problem
	// is the command line's line for it, when it refuses it.
	Command, Problem string
	// Profile is the profile the values came from ("" for none);
	// Profiles are the experiment's saved ones.
	Profile  string
	Profiles []string
	// Note says something worth knowing about the values (a profile's
	// flag that no longer exists).
	Note     string
	CSRF     string
	ReadOnly bool
	// SavedFrom is the profile whose saved passwords the form keeps
	// unseen (posted back in the field "saved"); Saved are the flags
	// whose password it keeps.
	SavedFrom string
	Saved     []string
}

// fieldGroup is a fieldset of the form.
type fieldGroup struct {
	Title  string
	Fields []field
}

// field is one flag as the template shows it: its field's name and
// current value (Checked for a checkbox).
type field struct {
	Flag
	Field, Value string
	Checked      bool
}

// Groups are the visible flags in their groups, in the form's order.
func (p formPage) Groups() []fieldGroup {
	var out []fieldGroup
	for _, f := range p.Experiment.Flags {
		if f.Hidden {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Title != f.Group {
			out = append(out, fieldGroup{Title: f.Group})
		}
		v := p.Values[f.Name]
		out[len(out)-1].Fields = append(out[len(out)-1].Fields, field{Flag: f, Field: fieldName(f.Name), Value: v, Checked: v == "true"})
	}
	return out
}

// newPage is what the list of experiments is given.
type newPage struct {
	Experiments []Experiment
}

// experiments lists the experiments a run can be launched of.
func (s *server) experiments(w http.ResponseWriter, r *http.Request) {
	var p newPage
	if s.opt.Experiments != nil {
		p.Experiments = s.opt.Experiments.Forms()
	}
	render(w, http.StatusOK, "new.html", p)
}

// showForm answers GET /new/{experiment}: the form with the defaults, or
// with a saved profile's values (?profile=NAME).
func (s *server) showForm(w http.ResponseWriter, r *http.Request) {
	e := s.form(r.PathValue("experiment"))
	if e == nil {
		s.unknownExperiment(w, r.PathValue("experiment"))
		return
	}
	v := defaults(e)
	name := r.URL.Query().Get("profile")
	if name == "" {
		render(w, http.StatusOK, "form.html", s.page(e, v, kept{}))
		return
	}
	saved, err := s.loadProfile(e, name)
	if err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	note := ""
	for k, val := range saved.Values {
		if _, ok := v[k]; ok {
			v[k] = val
		} else {
			note += "--" + k + " of the profile is not a flag of " + e.Name + " any more: left out. "
		}
	}
	k, unsealed := s.unseal(e, name, saved)
	k.fill(v)
	p := s.page(e, v, k)
	p.Profile, p.Note = name, note+unsealed
	render(w, http.StatusOK, "form.html", p)
}

// page is the form page of e with values v: the command and, when the
// command line refuses it, its line; the secrets k keeps are not shown.
func (s *server) page(e *Experiment, v values, k kept) formPage {
	p := formPage{Experiment: e, CSRF: s.csrf, ReadOnly: s.opt.ReadOnly}
	p.Profiles, _ = s.profiles(e)
	a := args(p.Experiment, v)
	p.Values = v
	p.Command = commandLine(s.opt.Experiments.Redact(a))
	// A path outside the directory of runs is refused before the command
	// line reads it (its line could quote the file).
	if p.Problem = s.outside(e, v); p.Problem == "" {
		p.Problem = s.opt.Experiments.Check(a)
	}
	k.hide(&p)
	return p
}

// checkForm answers POST /new/{experiment}/check: the form again with the
// command and the command line's answer; as JSON ({"command", "problem"})
// for the form's script, which asks as the fields change.
func (s *server) checkForm(w http.ResponseWriter, r *http.Request) {
	e, v, k, ok := s.posted(w, r)
	if !ok {
		return
	}
	p := s.page(e, v, k)
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		writeJSON(w, map[string]string{"command": p.Command, "problem": p.Problem})
		return
	}
	render(w, http.StatusOK, "form.html", p)
}

// posted reads a posted form of an experiment (the CSRF guard passed):
// the experiment, the values with the saved passwords the form kept put
// back, and those, or an answer already written.
func (s *server) posted(w http.ResponseWriter, r *http.Request) (*Experiment, values, kept, bool) {
	e := s.form(r.PathValue("experiment"))
	if e == nil {
		s.unknownExperiment(w, r.PathValue("experiment"))
		return nil, nil, kept{}, false
	}
	v := readValues(e, r.PostForm)
	// Files are kept only where the interface may write.
	form := r.MultipartForm
	if s.opt.ReadOnly {
		form = nil
	}
	if err := s.takeUploads(e, v, form); err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return nil, nil, kept{}, false
	}
	name := r.PostForm.Get(savedField)
	if name == "" {
		return e, v, kept{}, true
	}
	saved, err := s.loadProfile(e, name)
	if err != nil {
		showProblem(w, http.StatusBadRequest, err.Error())
		return nil, nil, kept{}, false
	}
	k, _ := s.unseal(e, name, saved)
	k.fill(v)
	return e, v, k, true
}

func (s *server) unknownExperiment(w http.ResponseWriter, name string) {
	known := []string{}
	if s.opt.Experiments != nil {
		for _, e := range s.opt.Experiments.Forms() {
			known = append(known, e.Name)
		}
	}
	showProblem(w, http.StatusNotFound, "no experiment "+name+" (known: "+strings.Join(known, ", ")+")")
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
