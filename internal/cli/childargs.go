package cli

import (
	"slices"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// childArgs is a command line made fit for a child process, whose
// command line every local user reads (ps, /proc/PID/cmdline): the
// passwords of URL-valued flags leave their URLs for the child's
// environment ($DBGAUGE_DB_PASSWORD, which a URL without a password
// reads: dbms/password.go), and secret flags leave the command line for
// theirs ($DBGAUGE_TOKEN). One variable holds one password: URLs with
// different passwords, or with one and without, cannot share it, and
// are refused with the way to give them.
func childArgs(args []string) (argv, env []string, err error) {
	argv = make([]string, 0, len(args))
	var password, withPass, without string
	for i := 0; i < len(args); i++ {
		name, value, ok := flagValue(args, i)
		if !ok {
			argv = append(argv, args[i])
			continue
		}
		if !strings.Contains(args[i], "=") {
			i++ // the value was the next argument
		}
		switch {
		case slices.Contains(secretFlags, name):
			env = append(env, tokenEnv+"="+value)
			continue
		case slices.Contains(urlFlags, name):
			u, perr := dbms.ParseURL(value)
			switch {
			case perr != nil || u.Path != "":
				// Not a server's URL (abtest's --a may be SQL): as it is.
			case !u.HasPass:
				without = "--" + name
			case withPass != "" && u.Password != password:
				return nil, nil, usagef("%s and --%s give different passwords, and a run started from here takes one, from $%s: give them where the engines' own tools read them instead (README, Passwords)", withPass, name, dbms.PasswordEnv)
			default:
				password, withPass, value = u.Password, "--"+name, u.WithoutPassword()
			}
		}
		argv = append(argv, "--"+name+"="+value)
	}
	if withPass != "" && without != "" {
		return nil, nil, usagef("%s gives a password and %s none, and a run started from here takes the one of %s for both: give %s's password too, or both where the engines' own tools read them (README, Passwords)", withPass, without, withPass, without)
	}
	if withPass != "" {
		env = append(env, dbms.PasswordEnv+"="+password)
	}
	return argv, env, nil
}

// flagValue is the name and value of the flag args[i] gives, as
// --name=value or --name value, when the flag is one whose value is
// a secret or a URL.
func flagValue(args []string, i int) (name, value string, ok bool) {
	a, isFlag := strings.CutPrefix(args[i], "--")
	if !isFlag {
		return "", "", false
	}
	name, value, inline := strings.Cut(a, "=")
	if !slices.Contains(secretFlags, name) && !slices.Contains(urlFlags, name) {
		return "", "", false
	}
	if !inline {
		if i+1 >= len(args) {
			return "", "", false
		}
		value = args[i+1]
	}
	return name, value, true
}
