package sysinfo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// fileSystem finds the mount holding dir in /proc/self/mounts. dir may be
// relative (the default run directory runs/<time>-<experiment> is): it is
// made absolute, and its symbolic links followed where it exists, before
// it is matched against the mount points, which are always absolute (a
// relative dir matched none, and reports read "file system: at").
func fileSystem(dir string) (fstype, mount string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	b, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return "", ""
	}
	return mountOf(b, abs)
}

// mountOf is the file system type and mount point of the absolute path
// abs in the mount table b (the format of /proc/self/mounts, fstab(5): a
// line per mount, "device mountpoint type options dump pass", with space,
// tab, newline and backslash in a field written as octal escapes such as
// \040): the longest mount point that is abs or a directory above it, the
// last mounted of equal ones (it hides the others).
func mountOf(b []byte, abs string) (fstype, mount string) {
	if !filepath.IsAbs(abs) {
		return "", "" // mount points are absolute: nothing to match
	}
	abs = filepath.Clean(abs)
	found := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		mp := unescapeMount(f[1])
		if !(abs == mp || mp == "/" || strings.HasPrefix(abs, mp+"/")) {
			continue
		}
		if !found || len(mp) >= len(mount) {
			fstype, mount, found = unescapeMount(f[2]), mp, true
		}
	}
	return fstype, mount
}

// unescapeMount undoes the kernel's octal escapes of a mounts field
// (fs/proc_namespace.c mangle(): " \t\n\\" as \ooo).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
