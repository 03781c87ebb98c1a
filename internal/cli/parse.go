package cli

import (
	"strconv"
	"strings"
)

// parseSizes reads "10000,100000" (underscores allowed, k/M suffixes too).
func parseSizes(flag, s string) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(s, ",") {
		p := strings.ReplaceAll(strings.TrimSpace(part), "_", "")
		mult := int64(1)
		switch {
		case strings.HasSuffix(p, "k"), strings.HasSuffix(p, "K"):
			mult, p = 1_000, p[:len(p)-1]
		case strings.HasSuffix(p, "M"), strings.HasSuffix(p, "m"):
			mult, p = 1_000_000, p[:len(p)-1]
		}
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v <= 0 {
			example := "10000,100000"
			if flag == "scales" {
				example = "1,2,5,10"
			}
			return nil, usagef("--%s %q: %q is not a positive whole number (example: --%s %s)", flag, s, part, flag, example)
		}
		out = append(out, v*mult)
	}
	return out, nil
}

// parseChoices reads a comma list whose items must come from allowed.
func parseChoices(flag, s string, allowed []string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		p := strings.ToLower(strings.TrimSpace(part))
		ok := false
		for _, a := range allowed {
			if p == a {
				ok = true
			}
		}
		if !ok {
			return nil, usagef("--%s: unknown value %q (choose from %s)", flag, part, strings.Join(allowed, ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

func parseSeed(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, usagef("--seed %q: not a non-negative whole number", s)
	}
	return v, nil
}
