package sysinfo

import (
	"errors"
	"os"
	"testing"
)

func TestParseMemAvailable(t *testing.T) {
	b, err := os.ReadFile("testdata/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	// The captured file's MemAvailable line, read by eye.
	if kb, err := parseMemAvailable(b); err != nil || kb != 23138320 {
		t.Errorf("parseMemAvailable = %d, %v; want 23138320", kb, err)
	}
	for _, bad := range []string{"MemTotal: 1 kB\n", "MemAvailable: x kB\n", "MemAvailable: 12\n", "MemAvailable: -5 kB\n"} {
		if _, err := parseMemAvailable([]byte(bad)); !errors.Is(err, ErrMeminfo) {
			t.Errorf("parseMemAvailable(%q) = %v, want ErrMeminfo", bad, err)
		}
	}
}
