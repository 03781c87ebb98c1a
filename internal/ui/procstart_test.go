package ui

import (
	"errors"
	"os"
	"testing"
)

func TestParseProcStart(t *testing.T) {
	for _, c := range []struct {
		name, line string
		start      uint64
		state      byte
		bad        bool
	}{
		{"plain", "4242 (dbgauge) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 9 0 123456 0 0", 123456, 'S', false},
		{"a command with ) and spaces", "7 (a ) b) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0", 99, 'Z', false},
		{"cut short", "7 (x) S 1 2 3", 0, 0, true},
		{"no command", "7 x S", 0, 0, true},
	} {
		start, state, err := parseProcStart([]byte(c.line))
		if (err != nil) != c.bad || start != c.start || state != c.state {
			t.Errorf("%s: %d %c %v, want %d %c bad %v", c.name, start, state, err, c.start, c.state, c.bad)
		}
		if c.bad && !errors.Is(err, errProcStat) {
			t.Errorf("%s: %v does not wrap errProcStat", c.name, err)
		}
	}
	if _, zombie, ok := procStart(os.Getpid()); !ok || zombie {
		t.Errorf("this process: alive %v, zombie %v", ok, zombie)
	}
}
