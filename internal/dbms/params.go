package dbms

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// checkParams refuses a URL whose query names a parameter the adapter
// does not pass on (Adapter.Params; nil: the engine checks them itself):
// one line naming --db, the parameter and the ones it takes.
func (a *Adapter) checkParams(u *URL) error {
	if a.Params == nil {
		return nil
	}
	var unknown []string
	for k := range u.Query {
		if !slices.Contains(a.Params, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	noun := "parameter"
	if len(unknown) > 1 {
		noun = "parameters"
	}
	return &Error{Class: BadInput, Err: fmt.Errorf("--db %s: unknown %s %s for %s (it takes: %s)",
		RedactPasswords(u.Raw), noun, strings.Join(unknown, ", "), a.Name, strings.Join(a.Params, ", "))}
}
