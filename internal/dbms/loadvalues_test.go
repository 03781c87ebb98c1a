package dbms

import (
	"strings"
	"testing"
)

func TestDecimalUnscaled(t *testing.T) {
	for _, c := range []struct {
		s     string
		scale int
		want  int64
		err   string // part of the error; "" for none
	}{
		{"-10.00", 2, -1000, ""},
		{"300000.00", 2, 30000000, ""},
		{"0.1234", 4, 1234, ""},
		{"-0.0001", 4, -1, ""},
		{"5", 2, 500, ""},
		{"+1.5", 2, 150, ""},
		{".5", 1, 5, ""},
		{"7.", 0, 7, ""},
		{"0", 0, 0, ""},
		{"92233720368547758.07", 2, 9223372036854775807, ""},
		{"92233720368547758.08", 2, 0, "out of range"},
		{"922337203685477581", 1, 0, "out of range"},
		{"1.234", 2, 0, "more than 2 digits after the point"},
		{"1e5", 2, 0, "not a digit"},
		{"1.2.3", 2, 0, "not a digit"},
		{" 1", 2, 0, "not a digit"},
		{"", 2, 0, "no digits"},
		{"-", 2, 0, "no digits"},
		{".", 2, 0, "no digits"},
	} {
		got, err := DecimalUnscaled(c.s, c.scale)
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("DecimalUnscaled(%q, %d) = %d, %v; want %d", c.s, c.scale, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("DecimalUnscaled(%q, %d) = %d, %v; want an error saying %q", c.s, c.scale, got, err, c.err)
		}
	}
}

func TestDecimalBig(t *testing.T) {
	v, err := DecimalBig("-1234567890123456789012.34", 2)
	if err != nil || v.String() != "-123456789012345678901234" {
		t.Errorf("DecimalBig = %v, %v", v, err)
	}
	if _, err := DecimalBig("0.125", 2); err == nil {
		t.Error("DecimalBig took three digits after the point at scale 2")
	}
}

func TestColumnsOf(t *testing.T) {
	tab := Table{Columns: []Column{{Type: Int}, {Type: Timestamp}, {Type: Decimal}, {Type: Timestamp}}}
	if got := tab.ColumnsOf(Timestamp); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("ColumnsOf(Timestamp) = %v, want [1 3]", got)
	}
	if got := tab.ColumnsOf(Varchar); len(got) != 0 {
		t.Errorf("ColumnsOf(Varchar) = %v, want none", got)
	}
}
