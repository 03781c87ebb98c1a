package orders

import "testing"

func TestParseFixed(t *testing.T) {
	for _, c := range []struct {
		in    string
		scale int
		want  int64
	}{
		{"12.3", 2, 1230}, {"7", 2, 700}, {"-0.0500", 4, -500}, {"0.1234", 4, 1234},
		{"1.005", 2, 101}, {"-1.005", 2, -101}, {"1.004", 2, 100},
		{"123.45000000000002", 2, 12345}, {"122.99999999999999", 2, 12300},
		{"1e+06", 2, 100_000_000}, {"3000000.00", 2, 300_000_000}, {"+5.5", 2, 550},
	} {
		got, err := parseFixed(c.in, c.scale)
		if err != nil || got != c.want {
			t.Errorf("parseFixed(%q, %d) = %d, %v; want %d", c.in, c.scale, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "abc", "1.2.3", "-", ".", "12a"} {
		if v, err := parseFixed(bad, 2); err == nil {
			t.Errorf("parseFixed(%q) = %d, want an error", bad, v)
		}
	}
}

func TestFormatCents(t *testing.T) {
	for c, want := range map[int64]string{0: "0.00", 5: "0.05", -5: "-0.05", 12345: "123.45", -100: "-1.00", 500_000: "5000.00"} {
		if got := formatCents(c); got != want {
			t.Errorf("formatCents(%d) = %q, want %q", c, got, want)
		}
		if back, err := parseCents(formatCents(c)); err != nil || back != c {
			t.Errorf("parseCents(formatCents(%d)) = %d, %v", c, back, err)
		}
	}
}

// TestTotalAmount: clause 2.4.2.2's total, by hand: 100.00 at 10%
// discount and 5% + 2.5% taxes is 100 x 0.9 x 1.075 = 96.75.
func TestTotalAmount(t *testing.T) {
	if got := totalAmount(100_00, 1000, 500, 250); got != 96_75 {
		t.Errorf("total %d cents, want 9675", got)
	}
	// 0.01 x 0.9999 x 1.0001 = 0.00999...: rounds to a cent.
	if got := totalAmount(1, 1, 1, 0); got != 1 {
		t.Errorf("total %d cents, want 1", got)
	}
}
