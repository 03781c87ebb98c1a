package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A flag whose value names files (Flag.File: a workload's scripts) gets a
// file field beside its text: the files posted with the form are kept
// under the directory of runs (uploadsDir), named by their content, and
// their paths join the flag's value, so that a launched run reads them as
// the command line would. A path typed into the field must name a file
// under the directory of runs: the interface serves whoever holds its
// token, and that must not make it read the machine's other files into a
// run. The run itself keeps what it read (a script's text goes into its
// plan), so an upload may be removed once the run has started.

// uploadsDir holds the uploaded files, one directory per content.
const uploadsDir = ".dbgauge-ui/uploads"

// maxUpload bounds a posted form that carries files.
const maxUpload = 16 << 20

// uploadField is the form's file input of a File flag.
func uploadField(flag string) string { return "upload." + flag }

// weightSuffix is the "@WEIGHT" a file flag's value may end with
// (FILE@WEIGHT, as pgbench's -f).
var weightSuffix = regexp.MustCompile(`@[0-9]+$`)

// splitWeight parts a file flag's item into its path and its "@WEIGHT".
func splitWeight(item string) (path, weight string) {
	if loc := weightSuffix.FindStringIndex(item); loc != nil {
		return item[:loc[0]], item[loc[0]:]
	}
	return item, ""
}

// takeUploads keeps the files posted for e's file flags and adds their
// paths to v: a new line of a repeated flag, the value of another. Typed
// paths relative to the directory of runs become absolute, so that the
// command shown is the one that runs.
func (s *server) takeUploads(e *Experiment, v values, form *multipart.Form) error {
	for _, f := range e.Flags {
		if !f.File || f.Hidden {
			continue
		}
		v[f.Name] = s.absolute(f, v[f.Name])
		if form == nil {
			continue
		}
		for _, fh := range form.File[uploadField(f.Name)] {
			p, err := s.keep(fh)
			if err != nil {
				return fmt.Errorf("--%s: the file %q could not be kept: %w", f.Name, fh.Filename, err)
			}
			if f.Kind == KindRepeated && strings.TrimSpace(v[f.Name]) != "" {
				v[f.Name] = strings.TrimRight(v[f.Name], "\n") + "\n" + p
			} else {
				v[f.Name] = p
			}
		}
	}
	return nil
}

// absolute rewrites the relative paths of a file flag's value as paths
// under the directory of runs.
func (s *server) absolute(f Flag, val string) string {
	items := []string{val}
	if f.Kind == KindRepeated {
		items = strings.Split(val, "\n")
	}
	for i, item := range items {
		p, w := splitWeight(strings.TrimSpace(item))
		if p != "" && !filepath.IsAbs(p) {
			items[i] = filepath.Join(s.runsAbs(), p) + w
		}
	}
	return strings.Join(items, "\n")
}

// runsAbs is the directory of runs as an absolute path.
func (s *server) runsAbs() string {
	d, err := filepath.Abs(s.opt.Dir)
	if err != nil {
		return s.opt.Dir
	}
	return d
}

// keep stores one uploaded file under uploadsDir/HASH/NAME and returns
// its path: the same content keeps one copy, whoever sends it again.
func (s *server) keep(fh *multipart.FileHeader) (string, error) {
	name := filepath.Base(filepath.Clean("/" + strings.ReplaceAll(fh.Filename, `\`, "/")))
	if name == "/" || name == "." || strings.HasPrefix(name, ".") {
		return "", errors.New("give the file a name that does not start with a dot")
	}
	in, err := fh.Open()
	if err != nil {
		return "", err
	}
	defer in.Close()
	b, err := io.ReadAll(in)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	dir := filepath.Join(s.runsAbs(), filepath.FromSlash(uploadsDir), hex.EncodeToString(sum[:8]))
	p := filepath.Join(dir, name)
	if old, err := os.ReadFile(p); err == nil && string(old) == string(b) {
		return p, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp := p + ".part"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return "", err
	}
	return p, os.Rename(tmp, p)
}

// outside names the first path of e's file flags that is not under the
// directory of runs, as the one line the form shows ("" when none is).
func (s *server) outside(e *Experiment, v values) string {
	runs, err := filepath.EvalSymlinks(s.runsAbs())
	if err != nil {
		runs = s.runsAbs()
	}
	for _, f := range e.Flags {
		if !f.File || f.Hidden {
			continue
		}
		for _, item := range strings.Split(v[f.Name], "\n") {
			p, _ := splitWeight(strings.TrimSpace(item))
			if p == "" {
				continue
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				real = filepath.Clean(p) // the command line names what is missing
			}
			if rel, err := filepath.Rel(runs, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				return fmt.Sprintf("--%s %s: the interface runs only files under its directory of runs %s: upload the file with the form, or give a path under that directory", f.Name, p, runs)
			}
		}
	}
	return ""
}

// isMultipart tells whether r posts a form with files.
func isMultipart(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
}
