// Package sysinfo describes the machine a run measured on: OS, kernel, CPU,
// memory and the file system of the data.
package sysinfo

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// System is the machine description stored in every manifest.
type System struct {
	OS          string `json:"os"`
	Kernel      string `json:"kernel"`
	Arch        string `json:"arch"`
	CPUModel    string `json:"cpu_model"`
	CPUs        int    `json:"cpus"`
	MemoryBytes int64  `json:"memory_bytes"`
	Hostname    string `json:"hostname"`
	// FileSystem is the type of the file system holding the run directory,
	// Mount its mount point.
	FileSystem string `json:"file_system"`
	Mount      string `json:"mount"`
	Virtual    string `json:"virtualization,omitempty"`
	Root       bool   `json:"root"`
}

// Describe reads the machine description; dir is the run directory.
func Describe(dir string) System {
	s := System{Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Root: os.Geteuid() == 0}
	s.Hostname, _ = os.Hostname()
	s.OS = osRelease()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		s.Kernel = strings.TrimSpace(string(b))
	}
	s.CPUModel, s.Virtual = cpuInfo()
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil {
		s.MemoryBytes = int64(si.Totalram) * int64(si.Unit)
	}
	s.FileSystem, s.Mount = fileSystem(dir)
	return s
}

func osRelease() string {
	f, err := os.Open("/etc/os-release")
	if err != nil {
		return runtime.GOOS
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return runtime.GOOS
}

func cpuInfo() (model, virt string) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "model name" && model == "" {
			model = v
		}
		if k == "flags" && strings.Contains(" "+v+" ", " hypervisor ") {
			virt = "virtual machine (hypervisor flag set)"
		}
	}
	return model, virt
}
