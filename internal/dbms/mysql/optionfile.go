package mysql

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MariaDB's and MySQL's clients read their options from option files
// (https://mariadb.com/kb/en/configuring-mariadb-with-option-files/): in
// order /etc/my.cnf, /etc/mysql/my.cnf, $MARIADB_HOME/my.cnf (or
// $MYSQL_HOME/my.cnf) and ~/.my.cnf, each option as the last file and
// line that set it, from the groups every client reads. dbgauge reads the
// password from them as the clients do.

// clientGroups are the option groups every MariaDB client reads.
var clientGroups = []string{"client", "client-server", "client-mariadb"}

// optionFiles are the option files a client reads, in order.
func optionFiles() []string {
	files := []string{"/etc/my.cnf", "/etc/mysql/my.cnf"}
	if d := os.Getenv("MARIADB_HOME"); d != "" {
		files = append(files, filepath.Join(d, "my.cnf"))
	} else if d := os.Getenv("MYSQL_HOME"); d != "" {
		files = append(files, filepath.Join(d, "my.cnf"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		files = append(files, filepath.Join(home, ".my.cnf"))
	}
	return files
}

// clientOption is the value of option name in the client groups of
// files (the last that sets it), and the file that set it; "" when none
// does. A missing or unreadable file is skipped, as the clients skip
// it; so is a world-writable one, which the clients ignore as anyone's
// to change.
func clientOption(files []string, name string) (value, file string, err error) {
	for _, f := range files {
		v, set, err := readOption(f, name, 0)
		if err != nil {
			return "", "", err
		}
		if set {
			value, file = v, f
		}
	}
	return value, file, nil
}

// maxIncludeDepth bounds !include chains (a file that includes itself).
const maxIncludeDepth = 10

// readOption reads option name from the client groups of one option file
// and the files it includes (!include FILE, !includedir DIR: its *.cnf
// files in name order).
func readOption(path, name string, depth int) (value string, set bool, err error) {
	if depth > maxIncludeDepth {
		return "", false, fmt.Errorf("option file %s: !include nested more than %d deep", path, maxIncludeDepth)
	}
	f, err := os.Open(path)
	if err != nil {
		// Missing or unreadable (another user's): the clients go on
		// without it (my_default.c).
		return "", false, nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Mode().Perm()&0o002 != 0 || fi.IsDir() {
		return "", false, nil
	}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if dir, ok := strings.CutPrefix(line, "!includedir"); ok {
			names, _ := filepath.Glob(filepath.Join(strings.TrimSpace(dir), "*.cnf"))
			sort.Strings(names)
			for _, n := range names {
				if v, ok, err := readOption(n, name, depth+1); err != nil {
					return "", false, err
				} else if ok {
					value, set = v, true
				}
			}
			continue
		}
		if inc, ok := strings.CutPrefix(line, "!include"); ok {
			if v, ok, err := readOption(strings.TrimSpace(inc), name, depth+1); err != nil {
				return "", false, err
			} else if ok {
				value, set = v, true
			}
			continue
		}
		line = strings.TrimSpace(withoutComment(line))
		if line == "" || line[0] == ';' {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			group := strings.TrimSpace(line[1 : len(line)-1])
			in = false
			for _, g := range clientGroups {
				in = in || strings.EqualFold(group, g)
			}
			continue
		}
		k, v, hasValue := strings.Cut(line, "=")
		if !in || !hasValue || strings.ReplaceAll(strings.TrimSpace(k), "_", "-") != name {
			// "password" without a value asks on the terminal: no
			// password to take from the file.
			continue
		}
		value, set = optionValue(strings.TrimSpace(v)), true
	}
	if err := sc.Err(); err != nil {
		return "", false, fmt.Errorf("option file %s: %w", path, err)
	}
	return value, set, nil
}

// withoutComment cuts line at a # outside quotes, as the clients do.
func withoutComment(line string) string {
	var quote rune
	escape := false
	for i, c := range line {
		switch {
		case (c == '\'' || c == '"') && !escape:
			if quote == 0 {
				quote = c
			} else if quote == c {
				quote = 0
			}
		case c == '#' && quote == 0:
			return line[:i]
		}
		escape = quote != 0 && c == '\\' && !escape
	}
	return line
}

// optionValue is a value as written: quotes around it removed, and the
// escapes \n \t \r \b \s (a space) \" \' \\ read; another backslash stays.
func optionValue(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i == len(v)-1 {
			b.WriteByte(v[i])
			continue
		}
		i++
		switch v[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 's':
			b.WriteByte(' ')
		case '"', '\'', '\\':
			b.WriteByte(v[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(v[i])
		}
	}
	return b.String()
}
