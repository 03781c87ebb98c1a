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

// optClass is what pgbench's main() makes of an option's presence: a
// benchmarking option cannot go with -i, an initialisation one only with it.
type optClass int

const (
	either optClass = iota
	benchmarking
	initialization
)

// option is one of pgbench's options: its short letter (0 for a long-only
// option), its long name, whether it takes an argument, and its class.
type option struct {
	short byte
	long  string
	arg   argKind
	class optClass
}

// options are pgbench 15's, as its getopt_long string and long option table
// declare them. -d is --debug in this release (--dbname came later).
var options = []option{
	{'b', "builtin", requiredArg, benchmarking},
	{'c', "client", requiredArg, benchmarking},
	{'C', "connect", noArg, benchmarking},
	{'d', "debug", noArg, either},
	{'D', "define", requiredArg, benchmarking},
	{'f', "file", requiredArg, benchmarking},
	{'F', "fillfactor", requiredArg, initialization},
	{'h', "host", requiredArg, either},
	{'i', "initialize", noArg, either},
	{'I', "init-steps", requiredArg, initialization},
	{'j', "jobs", requiredArg, benchmarking},
	{'l', "log", noArg, benchmarking},
	{'L', "latency-limit", requiredArg, benchmarking},
	{'M', "protocol", requiredArg, benchmarking},
	{'n', "no-vacuum", noArg, either},
	{'N', "skip-some-updates", noArg, benchmarking},
	{'p', "port", requiredArg, either},
	{'P', "progress", requiredArg, benchmarking},
	{'q', "quiet", noArg, initialization},
	{'r', "report-per-command", noArg, benchmarking},
	{'R', "rate", requiredArg, benchmarking},
	{'s', "scale", requiredArg, either},
	{'S', "select-only", noArg, benchmarking},
	{'t', "transactions", requiredArg, benchmarking},
	{'T', "time", requiredArg, benchmarking},
	{'U', "username", requiredArg, either},
	{'v', "vacuum-all", noArg, benchmarking},
	{0, "unlogged-tables", noArg, initialization},
	{0, "tablespace", requiredArg, initialization},
	{0, "index-tablespace", requiredArg, initialization},
	{0, "sampling-rate", requiredArg, benchmarking},
	{0, "aggregate-interval", requiredArg, benchmarking},
	{0, "progress-timestamp", noArg, benchmarking},
	{0, "log-prefix", requiredArg, benchmarking},
	{0, "foreign-keys", noArg, initialization},
	{0, "random-seed", requiredArg, benchmarking},
	{0, "show-script", requiredArg, either},
	{0, "partitions", requiredArg, initialization},
	{0, "partition-method", requiredArg, initialization},
	{0, "failures-detailed", noArg, benchmarking},
	{0, "max-tries", requiredArg, benchmarking},
	{0, "verbose-errors", noArg, benchmarking},
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
