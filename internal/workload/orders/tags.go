package orders

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Acknowledged writes (workload.Tagger): when the run checks them
// (--check-acks, a node fault), each Payment's history row carries its
// client's tag in h_data ("dbg:CLIENT:SEQ", at most 24 characters for
// any client below 10^5 and sequence below 10^12) instead of the
// warehouse's and the district's names (clause 2.5.2.2). Payments are the
// writes found again this way; a New-Order or a Delivery lost in a
// failover shows in the consistency conditions instead (2, 3, 4 and 5-7
// hold only if every committed change of one is there).

var _ workload.Tagger = (*Workload)(nil)

const tagPrefix = "dbg:"

// tagText is a Payment's tag as its h_data holds it.
func tagText(client int, seq int64) string {
	return tagPrefix + strconv.Itoa(client) + ":" + strconv.FormatInt(seq, 10)
}

// ReadTags reads the tags of every Payment committed with one.
func (w *Workload) ReadTags(ctx context.Context, e dbms.Engine) (map[int][]int64, error) {
	rows, err := e.QueryRows(ctx, "SELECT h_data FROM history WHERE h_data LIKE '"+tagPrefix+"%'")
	if err != nil {
		return nil, fmt.Errorf("read the payments' tags: %w", err)
	}
	out := map[int][]int64{}
	for _, r := range rows {
		client, seq, ok := parseTag(strings.TrimSpace(r[0]))
		if !ok {
			return nil, fmt.Errorf("read the payments' tags: %q is not one", r[0])
		}
		out[client] = append(out[client], seq)
	}
	return out, nil
}

func parseTag(s string) (client int, seq int64, ok bool) {
	c, q, found := strings.Cut(strings.TrimPrefix(s, tagPrefix), ":")
	if !found {
		return 0, 0, false
	}
	client, err1 := strconv.Atoi(c)
	seq, err2 := strconv.ParseInt(q, 10, 64)
	return client, seq, err1 == nil && err2 == nil
}
