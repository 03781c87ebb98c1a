package cli

import "runtime/debug"

// version is set by the Makefile with -ldflags "-X ...cli.version=...".
var version = ""

// Version is dbgauge's version: the linker-set one, else the VCS revision.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", ""
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "-dirty"
				}
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			return "dev-" + rev + dirty
		}
	}
	return "dev"
}
