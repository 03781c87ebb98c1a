package tpcb

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// A tag marks a history row with the client that inserted it and the
// client's sequence number for the attempt: CCCCCC-SSSSSSSSSSSSSSS, six
// digits of client and fifteen of sequence, exactly the history filler's
// 22 characters (so a CHAR column pads nothing).
const (
	tagClientDigits = 6
	tagSeqDigits    = historyFillerLen - tagClientDigits - 1
)

// MaxTagClients bounds the clients a tagged load may have.
const MaxTagClients = 1_000_000

// Tag is the history filler of client's attempt seq.
func Tag(client int, seq int64) string {
	return fmt.Sprintf("%0*d-%0*d", tagClientDigits, client, tagSeqDigits, seq)
}

// ParseTag reads a Tag back; ok is false for any other filler (a row of
// an untagged transaction).
func ParseTag(s string) (client int, seq int64, ok bool) {
	s = strings.TrimRight(s, " ")
	if len(s) != historyFillerLen || s[tagClientDigits] != '-' {
		return 0, 0, false
	}
	c, err1 := strconv.Atoi(s[:tagClientDigits])
	q, err2 := strconv.ParseInt(s[tagClientDigits+1:], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return c, q, true
}

// ReadTags reads the tags of the history rows: per client, the sequence
// numbers found. Untagged rows are counted apart. It runs while no load
// runs (between cycles).
func ReadTags(ctx context.Context, e dbms.Engine) (tags map[int][]int64, untagged int64, err error) {
	rows, err := e.QueryRows(ctx, "SELECT filler FROM "+History)
	if err != nil {
		return nil, 0, fmt.Errorf("read the history's tags: %w", err)
	}
	tags = map[int][]int64{}
	for _, r := range rows {
		if len(r) != 1 {
			return nil, 0, fmt.Errorf("read the history's tags: unexpected row %v", r)
		}
		c, q, ok := ParseTag(r[0])
		if !ok {
			untagged++
			continue
		}
		tags[c] = append(tags[c], q)
	}
	return tags, untagged, nil
}
