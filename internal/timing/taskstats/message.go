package taskstats

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/mdlayher/netlink"
)

// Values from include/uapi/linux/taskstats.h.
const (
	familyName = "TASKSTATS"

	cmdGet = 1 // TASKSTATS_CMD_GET: user to kernel
	cmdNew = 2 // TASKSTATS_CMD_NEW: kernel to user (answers and exits)

	typePID      = 1 // TASKSTATS_TYPE_PID
	typeTGID     = 2 // TASKSTATS_TYPE_TGID
	typeStats    = 3 // TASKSTATS_TYPE_STATS
	typeAggrPID  = 4 // TASKSTATS_TYPE_AGGR_PID: nested PID + STATS
	typeAggrTGID = 5 // TASKSTATS_TYPE_AGGR_TGID: nested TGID + STATS
	typeNull     = 6 // TASKSTATS_TYPE_NULL: alignment padding

	attrPID               = 1 // TASKSTATS_CMD_ATTR_PID
	attrTGID              = 2 // TASKSTATS_CMD_ATTR_TGID
	attrRegisterCPUMask   = 3 // TASKSTATS_CMD_ATTR_REGISTER_CPUMASK
	attrDeregisterCPUMask = 4 // TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK
)

// Kind says which aggregate a record came in.
type Kind uint8

const (
	// KindPID is a TASKSTATS_TYPE_AGGR_PID record: one task (thread).
	KindPID Kind = iota + 1
	// KindTGID is a TASKSTATS_TYPE_AGGR_TGID record: a thread group.
	KindTGID
)

func (k Kind) String() string {
	switch k {
	case KindPID:
		return "pid"
	case KindTGID:
		return "tgid"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Exit is one record of an exit notification.
type Exit struct {
	Kind Kind
	// ID is the pid (KindPID) or tgid (KindTGID) the kernel named beside
	// the statistics.
	ID    int
	Stats Stats
}

// parseRecords decodes the attributes of a TASKSTATS_CMD_NEW message: zero
// or more padding attributes and one or two aggregates.
func parseRecords(data []byte) ([]Exit, error) {
	attrs, err := netlink.UnmarshalAttributes(data)
	if err != nil {
		return nil, fmt.Errorf("taskstats: %w", err)
	}
	var out []Exit
	for _, a := range attrs {
		var k Kind
		switch a.Type {
		case typeAggrPID:
			k = KindPID
		case typeAggrTGID:
			k = KindTGID
		default:
			continue // TASKSTATS_TYPE_NULL padding, or something newer
		}
		r, err := parseAggregate(k, a.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// parseAggregate decodes the nested PID or TGID and STATS attributes.
func parseAggregate(k Kind, data []byte) (Exit, error) {
	attrs, err := netlink.UnmarshalAttributes(data)
	if err != nil {
		return Exit{}, fmt.Errorf("taskstats: %s aggregate: %w", k, err)
	}
	r := Exit{Kind: k}
	var haveID, haveStats bool
	for _, a := range attrs {
		switch a.Type {
		case typePID, typeTGID:
			if len(a.Data) < 4 {
				return Exit{}, errors.New("taskstats: short pid attribute")
			}
			r.ID = int(binary.NativeEndian.Uint32(a.Data))
			haveID = true
		case typeStats:
			if r.Stats, err = parseStats(a.Data); err != nil {
				return Exit{}, err
			}
			haveStats = true
		}
	}
	if !haveID || !haveStats {
		return Exit{}, fmt.Errorf("taskstats: %s aggregate without id or stats", k)
	}
	if k == KindTGID && r.Stats.TGID == 0 {
		r.Stats.TGID = r.ID
	}
	return r, nil
}
