package userscript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/script"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// Options are the script workload's options as a run stores them and
// sends them to its agents: the scripts' contents, never paths to read
// again.
type Options struct {
	Scripts []File `json:"scripts"`
	// Init, if set, runs once per scale with :scale set, under the simple
	// protocol, before the scale's first cycle.
	Init *File `json:"init,omitempty"`
	// Defines are the -D NAME=VALUE, in order.
	Defines []string `json:"defines,omitempty"`
	// Protocol is simple, extended or prepared ("": prepared).
	Protocol string `json:"protocol,omitempty"`
	// MaxTries is pgbench's --max-tries (0 or 1: no retry).
	MaxTries   int  `json:"max_tries,omitempty"`
	AllowShell bool `json:"allow_shell,omitempty"`
}

// File is one script: the path it was read from (messages name it), its
// weight, its text, and its per-engine variants found beside it
// (script.LoadFile).
type File struct {
	Path     string             `json:"path"`
	Weight   int                `json:"weight"`
	Text     string             `json:"text"`
	Variants map[string]Variant `json:"variants,omitempty"`
}

// Variant is a script's text for one engine.
type Variant struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// Configure takes the run's options and checks them as pgbench checks
// its scripts before it connects: a refusal names FILE:LINE:COL or the
// option.
func (w *Workload) Configure(raw json.RawMessage) error {
	var o Options
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	proto := script.Prepared
	if o.Protocol != "" {
		p, err := script.ParseProtocol(o.Protocol)
		if err != nil {
			return fmt.Errorf("--protocol: %w", err)
		}
		proto = p
	}
	var defines []script.Define
	for _, d := range o.Defines {
		def, err := script.ParseDefine(d)
		if err != nil {
			return fmt.Errorf("--define: %w", err)
		}
		defines = append(defines, def)
	}
	var sources []script.Source
	for _, f := range o.Scripts {
		src, err := f.source()
		if err != nil {
			return err
		}
		sources = append(sources, src)
	}
	if len(sources) == 0 {
		return fmt.Errorf("no script: give one with --script FILE[@WEIGHT]")
	}
	// The whole check now, at scale 1: what a scale changes is :scale's
	// value only.
	if _, err := script.NewProgram(sources, w.programOptions(proto, defines, o, 1, 0)); err != nil {
		return err
	}
	var init *script.Source
	if o.Init != nil {
		src, err := o.Init.source()
		if err != nil {
			return err
		}
		if _, err := initProgram(src, defines, o.AllowShell, 1); err != nil {
			return err
		}
		init = &src
	}
	w.opts, w.sources, w.init, w.defines, w.protocol = o, sources, init, defines, proto
	w.types = typeNames(o.Scripts)
	w.programs = nil
	return nil
}

// source parses f and its variants.
func (f File) source() (script.Source, error) {
	s, err := parse.Parse(f.Path, f.Text, script.ParseOptions())
	if err != nil {
		return script.Source{}, err
	}
	s.Weight = f.Weight
	src := script.Source{Script: s}
	for _, engine := range sortedKeys(f.Variants) {
		v := f.Variants[engine]
		vs, err := parse.Parse(v.Path, v.Text, script.ParseOptions())
		if err != nil {
			return script.Source{}, err
		}
		vs.Weight = f.Weight
		if src.Variants == nil {
			src.Variants = map[string]*parse.Script{}
		}
		src.Variants[engine] = vs
	}
	return src, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// programOptions are the runtime's options at scale x with random seed
// seed.
func (w *Workload) programOptions(proto script.Protocol, defines []script.Define, o Options, x int64, seed uint64) script.Options {
	return script.Options{Protocol: proto, MaxTries: max(o.MaxTries, 1), Defines: defines,
		AllowShell: o.AllowShell, Scale: x, RandomSeed: seed}
}

// typeNames are the scripts' types: each named by its file's base name
// without the extension, made unique by a "-2", "-3", ... suffix.
func typeNames(files []File) []workload.Type {
	used := map[string]bool{}
	out := make([]workload.Type, len(files))
	for i, f := range files {
		base := filepath.Base(f.Path)
		if b := strings.TrimSuffix(base, filepath.Ext(base)); b != "" {
			base = b
		}
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		used[name] = true
		out[i] = workload.Type{Name: name, Weight: f.Weight}
	}
	return out
}

// Statements name each type's commands on engine (its variant where it
// has one): "N TEXT", N the command's number in the script from 1 and
// TEXT its beginning, so unique within the type.
func (w *Workload) Statements(engine string) [][]string {
	out := make([][]string, len(w.sources))
	for i, src := range w.sources {
		for k, c := range src.For(engine).Commands {
			out[i] = append(out[i], fmt.Sprintf("%d %s", k+1, shorten(c.Text, statementText)))
		}
	}
	return out
}

// statementText bounds a statement's text in its name: enough to know it
// in a table, short enough for a column.
const statementText = 40

// shorten cuts s to about n bytes at a word's end, marking the cut.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
	}
	return s[:cut] + " ..."
}
