// Package nodes spreads a load over remote agents (dbgauge agent) through
// NATS: registration, the start barrier with clock offsets, cycles
// announced as times, heartbeats, per-cycle reports with the nodes'
// histograms, and their merge into the driver's results (seed 001 §2.4:
// nodes x threads x connections; docs/nodes.md).
//
// The master embeds a NATS server (or joins an existing one); agents dial
// it. Core NATS delivers at most once, so every exchange that must not be
// lost is a request answered by the other side and sent again until it
// is: registration, jobs, ready-for-a-cycle (answered with the cycle's
// start), cycle reports (answered with an acknowledgement) and the end of
// a job. Heartbeats go both ways every second and may be lost; a silence
// of 3 s makes an agent missing, of 10 s lost (Missing, Lost), and an
// agent whose master has been silent for 10 s stops its load.
//
// The package knows no benchmark: an experiment registers a Builder per
// job kind (Register), which turns the job's payload into the driver
// configuration an agent runs, and the master side is a function with the
// driver's shape (Master.Run) that the experiment calls instead of
// driver.Run.
package nodes

import "time"

// Missing and Lost are the silences after which the master calls an
// agent missing, then lost; MasterSilent the silence after which an agent
// stops its load.
const (
	Missing      = 3 * time.Second
	Lost         = 10 * time.Second
	MasterSilent = 10 * time.Second
	beat         = time.Second
)

// protocol is the version of the messages below; an agent of another is
// refused (through ConfigHash).
const protocol = 1
