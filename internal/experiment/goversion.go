package experiment

import "runtime"

func goVersion() string { return runtime.Version() }
