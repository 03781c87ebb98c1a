package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// clockSample is one ping: the agent's clock when it asked and when the
// answer came, and the master's clock in the answer (Unix nanoseconds).
type clockSample struct {
	Sent, Received, Master int64
}

// Offset is an agent's clock minus the master's, with the bound of its
// error.
type Offset struct {
	Offset, Error time.Duration
}

// estimate takes the sample with the lowest round trip: the master read
// its clock somewhere within it, so its midpoint is off by at most half the
// round trip (the NTP argument, without assuming symmetric delays beyond
// that bound).
func estimate(samples []clockSample) (Offset, error) {
	if len(samples) == 0 {
		return Offset{}, fmt.Errorf("no clock sample")
	}
	best := samples[0]
	for _, s := range samples[1:] {
		if s.Received-s.Sent < best.Received-best.Sent {
			best = s
		}
	}
	rtt := best.Received - best.Sent
	mid := best.Sent + rtt/2
	return Offset{Offset: time.Duration(mid - best.Master), Error: time.Duration((rtt + 1) / 2)}, nil
}

// clockPings is how many pings an estimate takes (at least 5).
const clockPings = 8

// measureClock pings the master clockPings times and estimates the offset.
func measureClock(ctx context.Context, nc *nats.Conn) (Offset, error) {
	var samples []clockSample
	for range clockPings {
		sent := time.Now().UnixNano()
		msg, err := nc.RequestWithContext(ctx, subjTime, nil)
		recv := time.Now().UnixNano()
		if err != nil {
			if ctx.Err() != nil {
				return Offset{}, err
			}
			continue // a lost ping: the others will do
		}
		var r clockReply
		if json.Unmarshal(msg.Data, &r) != nil {
			continue
		}
		samples = append(samples, clockSample{Sent: sent, Received: recv, Master: r.UnixNano})
	}
	if len(samples) < 5 {
		return Offset{}, fmt.Errorf("clock: %d of %d pings answered, want at least 5", len(samples), clockPings)
	}
	return estimate(samples)
}
