package netns

// Base returns the part every name of nt starts with, so that tests can
// look for anything of nt left on the machine.
func Base(nt *Net) string { return string(nt.base) }
