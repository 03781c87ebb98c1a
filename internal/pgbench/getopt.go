package pgbench

import (
	"fmt"
	"strings"
)

// argKind says whether an option takes an argument.
type argKind int

const (
	noArg argKind = iota
	requiredArg
)

// option is one of pgbench's options: its short letter (0 for a long-only
// option), its long name, and whether it takes an argument.
type option struct {
	short byte
	long  string
	arg   argKind
}

// options are pgbench 15's, as its getopt_long string and long option table
// declare them. -d is --debug in this release (--dbname came later).
var options = []option{
	{'b', "builtin", requiredArg},
	{'c', "client", requiredArg},
	{'C', "connect", noArg},
	{'d', "debug", noArg},
	{'D', "define", requiredArg},
	{'f', "file", requiredArg},
	{'F', "fillfactor", requiredArg},
	{'h', "host", requiredArg},
	{'i', "initialize", noArg},
	{'I', "init-steps", requiredArg},
	{'j', "jobs", requiredArg},
	{'l', "log", noArg},
	{'L', "latency-limit", requiredArg},
	{'M', "protocol", requiredArg},
	{'n', "no-vacuum", noArg},
	{'N', "skip-some-updates", noArg},
	{'p', "port", requiredArg},
	{'P', "progress", requiredArg},
	{'q', "quiet", noArg},
	{'r', "report-per-command", noArg},
	{'R', "rate", requiredArg},
	{'s', "scale", requiredArg},
	{'S', "select-only", noArg},
	{'t', "transactions", requiredArg},
	{'T', "time", requiredArg},
	{'U', "username", requiredArg},
	{'v', "vacuum-all", noArg},
	{0, "unlogged-tables", noArg},
	{0, "tablespace", requiredArg},
	{0, "index-tablespace", requiredArg},
	{0, "sampling-rate", requiredArg},
	{0, "aggregate-interval", requiredArg},
	{0, "progress-timestamp", noArg},
	{0, "log-prefix", requiredArg},
	{0, "foreign-keys", noArg},
	{0, "random-seed", requiredArg},
	{0, "show-script", requiredArg},
	{0, "partitions", requiredArg},
	{0, "partition-method", requiredArg},
	{0, "failures-detailed", noArg},
	{0, "max-tries", requiredArg},
	{0, "verbose-errors", noArg},
}

// flagged is one option found on the command line, in order.
type flagged struct {
	opt *option
	// name is how the user wrote it ("-c", "--client"), for messages.
	name string
	val  string
}

// getopt splits args the way glibc's getopt_long does for pgbench: options
// and operands may be mixed (operands are collected in order), "--" ends
// the options, short options bundle ("-nS", "-c4"), a required argument is
// the rest of its word or the next word, and a long option may be any
// unambiguous prefix of its name, its argument after "=" or in the next
// word.
func getopt(args []string) (flags []flagged, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, err := findLong(name)
			if err != nil {
				return nil, nil, err
			}
			f := flagged{opt: o, name: "--" + o.long}
			switch {
			case o.arg == noArg && hasVal:
				return nil, nil, fmt.Errorf("option --%s takes no argument: write --%s alone", o.long, o.long)
			case o.arg == requiredArg && hasVal:
				f.val = val
			case o.arg == requiredArg:
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("option --%s needs an argument: write --%s=VALUE", o.long, o.long)
				}
				i++
				f.val = args[i]
			}
			flags = append(flags, f)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := findShort(a[j])
				if o == nil {
					return nil, nil, fmt.Errorf("invalid option -%c: see dbgauge pgbench --help for the options pgbench 15 takes", a[j])
				}
				f := flagged{opt: o, name: "-" + string(a[j])}
				if o.arg == requiredArg {
					if j+1 < len(a) {
						f.val = a[j+1:]
					} else if i+1 < len(args) {
						i++
						f.val = args[i]
					} else {
						return nil, nil, fmt.Errorf("option -%c needs an argument: write -%c VALUE", a[j], a[j])
					}
					flags = append(flags, f)
					break
				}
				flags = append(flags, f)
			}
		default:
			operands = append(operands, a)
		}
	}
	return flags, operands, nil
}

func findShort(c byte) *option {
	for i := range options {
		if options[i].short == c && c != 0 {
			return &options[i]
		}
	}
	return nil
}

// findLong finds a long option by its name or an unambiguous prefix of it;
// an exact name wins over the longer names it begins.
func findLong(name string) (*option, error) {
	var found []*option
	for i := range options {
		o := &options[i]
		if o.long == name {
			return o, nil
		}
		if name != "" && strings.HasPrefix(o.long, name) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("unrecognized option --%s: see dbgauge pgbench --help for the options pgbench 15 takes", name)
	}
	names := make([]string, len(found))
	for i, o := range found {
		names[i] = "--" + o.long
	}
	return nil, fmt.Errorf("option --%s is ambiguous (%s): write the whole name", name, strings.Join(names, ", "))
}
