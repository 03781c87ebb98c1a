package cli

import (
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// urlFlags are the flags whose values may be engine URLs with passwords:
// --db, and abtest's variants --a and --b.
var urlFlags = []string{"db", "a", "b"}

// secretFlags are the flags whose whole value is a secret: the remote
// agents' token.
var secretFlags = []string{"token"}

// redacted stands for a secret's value.
const redacted = "***"

// redactArgs hides the passwords of URL-valued flags, and secret flags, in
// a command line kept in a manifest.
func redactArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		for _, name := range secretFlags {
			flag := "--" + name
			switch {
			case a == flag && i+1 < len(out):
				out[i+1] = redacted
			case strings.HasPrefix(a, flag+"="):
				out[i] = flag + "=" + redacted
			}
		}
		for _, name := range urlFlags {
			flag := "--" + name
			switch {
			case a == flag && i+1 < len(out):
				out[i+1] = redactURL(out[i+1])
			case strings.HasPrefix(a, flag+"="):
				out[i] = flag + "=" + redactURL(a[len(flag)+1:])
			}
		}
	}
	return out
}

// redactConfig hides the passwords of URL-valued flags in the effective
// configuration (single values and lists).
func redactConfig(cfg map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range cfg {
		if slices.Contains(secretFlags, k) && v != "" {
			v = redacted
		}
		if isURLFlag(k) {
			switch x := v.(type) {
			case string:
				v = redactURL(x)
			case []string:
				red := make([]string, len(x))
				for i, s := range x {
					red[i] = redactURL(s)
				}
				v = red
			}
		}
		out[k] = v
	}
	return out
}

func isURLFlag(k string) bool {
	for _, n := range urlFlags {
		if k == n {
			return true
		}
	}
	return false
}

// redactURL hides the password of an engine URL; anything else (a
// session statement given to --a) is returned as it is.
func redactURL(s string) string {
	if u, err := dbms.ParseURL(s); err == nil {
		return u.Redacted()
	}
	return dbms.RedactPasswords(s)
}

// withoutPassword is an engine URL less its password, whether given or
// hidden (***): a run's URL is the same with or without it, which may
// come from elsewhere (dbms/password.go).
func withoutPassword(s string) string {
	if u, err := dbms.ParseURL(s); err == nil {
		return u.WithoutPassword()
	}
	// A list (abtest's --a and --b, as a manifest keeps them) or a text
	// around URLs: each URL's password, given or hidden, goes.
	return dbms.StripPasswords(dbms.RedactPasswords(s))
}

// hidesPassword says whether s is an engine URL whose password a
// manifest hid (user:***@ or ?password=***).
func hidesPassword(s string) bool {
	if u, err := dbms.ParseURL(s); err == nil {
		return u.HasPass && u.Password == redacted
	}
	// A list (abtest's --a and --b, as a manifest keeps them).
	return strings.Contains(s, ":"+redacted+"@") || strings.Contains(s, "password="+redacted)
}
