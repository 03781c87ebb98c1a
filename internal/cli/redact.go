package cli

import (
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// redactArgs hides the password of --db URLs in a command line kept in a
// manifest.
func redactArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		switch {
		case a == "--db" && i+1 < len(out):
			out[i+1] = redactURL(out[i+1])
		case strings.HasPrefix(a, "--db="):
			out[i] = "--db=" + redactURL(a[len("--db="):])
		}
	}
	return out
}

func redactConfig(cfg map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range cfg {
		if s, ok := v.(string); ok && k == "db" {
			v = redactURL(s)
		}
		out[k] = v
	}
	return out
}

func redactURL(s string) string {
	if u, err := dbms.ParseURL(s); err == nil {
		return u.Redacted()
	}
	return s
}
