package parse

import (
	"embed"
	"fmt"
	"strings"
)

// The built-in scripts are files, pgbench's text as `pgbench --show-script`
// prints it: a first comment line "-- NAME: DESCRIPTION", then the script.
//
//go:embed builtin/*.sql
var builtinFS embed.FS

// builtinOrder is pgbench's order of its built-in scripts (-b list).
var builtinOrder = []string{"tpcb-like", "simple-update", "select-only"}

// BuiltinNames lists the built-in scripts in pgbench's order.
func BuiltinNames() []string { return append([]string(nil), builtinOrder...) }

// BuiltinSource returns a built-in script's text and its description
// ("<builtin: TPC-B (sort of)>"), the name pgbench reports it under. name
// may be any unambiguous prefix of a built-in name, as with pgbench -b.
func BuiltinSource(name string) (src, desc string, err error) {
	var found []string
	for _, b := range builtinOrder {
		if strings.HasPrefix(b, name) {
			found = append(found, b)
		}
	}
	switch len(found) {
	case 0:
		return "", "", fmt.Errorf("no builtin script found for name %q: the builtin scripts are %s", name, strings.Join(builtinOrder, ", "))
	case 1:
	default:
		return "", "", fmt.Errorf("ambiguous builtin name: %d builtin scripts found for prefix %q (%s)", len(found), name, strings.Join(found, ", "))
	}
	b, err := builtinFS.ReadFile("builtin/" + found[0] + ".sql")
	if err != nil {
		return "", "", fmt.Errorf("builtin script %s: %w", found[0], err)
	}
	src = string(b)
	head, _, _ := strings.Cut(src, "\n")
	_, desc, ok := strings.Cut(head, ": ")
	if !ok {
		return "", "", fmt.Errorf("builtin script %s: its first line is not \"-- NAME: DESCRIPTION\"", found[0])
	}
	return src, desc, nil
}

// Builtin parses a built-in script (see BuiltinSource for name), named by
// its description as pgbench names it in reports.
func Builtin(name string, opts Options) (*Script, error) {
	src, desc, err := BuiltinSource(name)
	if err != nil {
		return nil, err
	}
	return Parse(desc, src, opts)
}
