package sysinfo

import (
	"errors"
	"testing"
)

func TestParseStatCPUs(t *testing.T) {
	c, n, err := ParseStatCPUs(fixture(t, "stat.1"))
	if err != nil || n != 2 {
		t.Fatalf("%d CPUs, %v; want 2", n, err)
	}
	// cpu  288250 0 48744 390563 12909 0 4913 7578: busy is all but idle
	// (390563) and iowait (12909), steal included.
	if b, tot := c.Busy(), c.Total(); b != 288250+48744+4913+7578 || tot != b+390563+12909 {
		t.Errorf("busy %d of %d", b, tot)
	}
	if _, _, err := ParseStatCPUs([]byte("cpu  10 1 5 80\n")); !errors.Is(err, ErrParse) {
		t.Errorf("no per-CPU lines: %v", err)
	}
}

func TestReadMachineCPU(t *testing.T) {
	if _, _, err := ReadMachineCPU(); err != nil {
		t.Error(err)
	}
}
