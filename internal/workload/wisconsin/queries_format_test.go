package wisconsin

import (
	"slices"
	"testing"
)

func TestFormatQueriesReadsBack(t *testing.T) {
	for _, c := range []struct {
		nums []int
		want string
	}{
		{[]int{7}, "7"},
		{[]int{1, 2, 9, 10, 11}, "1-2,9-11"},
		{[]int{23, 24, 25, 29, 30, 31, 32}, "23-25,29-32"},
	} {
		got := FormatQueries(c.nums)
		back, err := ParseQueries(got)
		if got != c.want || err != nil || !slices.Equal(back, c.nums) {
			t.Errorf("FormatQueries(%v) = %q (read back %v, %v), want %q", c.nums, got, back, err, c.want)
		}
	}
	// Hash runs only the single-tuple query (docs/wisconsin.md §5).
	if got := QueriesUnder(Hash); !slices.Equal(got, []int{7}) {
		t.Errorf("QueriesUnder(Hash) = %v, want [7]", got)
	}
}
