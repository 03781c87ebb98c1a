package userscript

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/workload"
	"github.com/dbgauge/dbgauge/internal/workload/script"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// flagValues are the workload's flags as the command line set them.
type flagValues struct {
	scripts, defines []string
	init, protocol   string
	maxTries         int
	allowShell       bool
}

// Flags binds the workload's flags on a sweep's command.
func (w *Workload) Flags(fs *pflag.FlagSet) {
	f := &w.flags
	fs.StringArrayVar(&f.scripts, "script", nil, "with --workload script: a pgbench script to run, FILE[@WEIGHT] (repeatable; each script is a transaction type, chosen by weight; a file NAME.ENGINE.EXT beside it, ENGINE an engine's name, replaces it on that engine)")
	fs.StringVar(&f.init, "init", "", "with --workload script: a pgbench script run once per scale, with :scale set, before the scale's cycles (create and fill your tables here; drop what an earlier scale left)")
	fs.StringArrayVarP(&f.defines, "define", "D", nil, "with --workload script: a variable of the scripts, NAME=VALUE (repeatable)")
	fs.StringVar(&f.protocol, "protocol", "prepared", "with --workload script: how SQL reaches the engine: simple, extended or prepared (pgbench's -M)")
	fs.IntVar(&f.maxTries, "max-tries", 1, "with --workload script: tries of a transaction that failed with a serialization failure or a deadlock, the script re-run with its variables restored (pgbench's --max-tries; 1: no retry)")
	fs.BoolVar(&f.allowShell, "allow-shell", false, "with --workload script: let the scripts run \\shell and \\setshell")
	for _, name := range []string{"script", "init"} {
		fs.SetAnnotation(name, workload.FileAnnotation, []string{"true"})
	}
}

// Options reads the files the flags name and checks them: the options of
// Configure, holding the files' contents. A refusal names the flag, or
// the file as FILE:LINE:COL.
func (w *Workload) Options() (json.RawMessage, error) {
	f := &w.flags
	if len(f.scripts) == 0 {
		return nil, fmt.Errorf("--workload script needs --script FILE[@WEIGHT]: give the pgbench script to run (repeatable)")
	}
	if f.maxTries < 1 {
		return nil, fmt.Errorf("--max-tries %d: give 1 or more (1: no retry)", f.maxTries)
	}
	if _, err := script.ParseProtocol(f.protocol); err != nil {
		return nil, fmt.Errorf("--protocol: %w", err)
	}
	for _, d := range f.defines {
		if _, err := script.ParseDefine(d); err != nil {
			return nil, fmt.Errorf("--define: %w", err)
		}
	}
	o := Options{Defines: f.defines, Protocol: f.protocol, MaxTries: f.maxTries, AllowShell: f.allowShell}
	for _, spec := range f.scripts {
		file, err := readFile("--script", spec)
		if err != nil {
			return nil, err
		}
		o.Scripts = append(o.Scripts, file)
	}
	if f.init != "" {
		file, err := readFile("--init", f.init)
		if err != nil {
			return nil, err
		}
		o.Init = &file
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	// Checked as the run will take them.
	if err := new(Workload).Configure(raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// readFile reads the script of spec, FILE[@WEIGHT], and its per-engine
// variants. A parse error is FILE:LINE:COL.
func readFile(flag, spec string) (File, error) {
	src, err := script.LoadFile(spec)
	if err != nil {
		if _, ok := parse.AsError(err); ok {
			return File{}, err // FILE:LINE:COL: what is wrong
		}
		return File{}, fmt.Errorf("%s %s: %w", flag, spec, err)
	}
	text, err := os.ReadFile(src.Script.Name)
	if err != nil {
		return File{}, fmt.Errorf("%s %s: %w", flag, spec, err)
	}
	f := File{Path: src.Script.Name, Weight: src.Script.Weight, Text: string(text)}
	for engine, v := range src.Variants {
		t, err := os.ReadFile(v.Name)
		if err != nil {
			return File{}, fmt.Errorf("%s %s: %w", flag, spec, err)
		}
		if f.Variants == nil {
			f.Variants = map[string]Variant{}
		}
		f.Variants[engine] = Variant{Path: v.Name, Text: string(t)}
	}
	return f, nil
}
