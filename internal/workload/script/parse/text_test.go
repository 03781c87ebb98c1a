package parse

import (
	"reflect"
	"testing"
)

// TestVariables checks which ":name" pgbench takes for a variable.
func TestVariables(t *testing.T) {
	cases := []struct {
		sql  string
		want []string
	}{
		{"SELECT :a, :b1, :_c, :A_b;", []string{"a", "b1", "_c", "A_b"}},
		{"SELECT :1x, :-a, : a;", nil},                     // a name does not start with a digit
		{"SELECT x::int, :a::text, a:::b;", []string{"a"}}, // casts are no variables
		{"SELECT :été, :nom€;", []string{"été", "nom€"}},   // any non-ASCII byte is a name byte
		{"SELECT :a:b;", []string{"a", "b"}},
		{"SELECT ':a', \":b\";", []string{"a", "b"}}, // pgbench substitutes inside literals too
		{"SELECT 1 -- :a\n;", nil},                   // but not in "--" comments, which are dropped
		{"SELECT :a, :a;", []string{"a", "a"}},
	}
	for _, c := range cases {
		got := mustParse(t, c.sql).Commands[0].SQL.Whole.Vars()
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Vars(%q) = %q, want %q", c.sql, got, c.want)
		}
	}
}

func TestValidVarName(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "_": true, "a1": true, "é": true, "A_9": true,
		"": false, "1a": false, "a-b": false, "a b": false, ".": false, "a:b": false,
	} {
		if got := ValidVarName(name); got != want {
			t.Errorf("ValidVarName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestRender checks the three protocols' forms of one command.
func TestRender(t *testing.T) {
	text := mustParse(t, "UPDATE t SET v = :v + :d WHERE k = :k AND v <> :v::int;").Commands[0].SQL.Whole
	vars := map[string]string{"v": "10", "k": "'x'"}
	lookup := func(n string) (string, bool) { s, ok := vars[n]; return s, ok }

	if got, want := text.Simple(lookup), "UPDATE t SET v = 10 + :d WHERE k = 'x' AND v <> 10::int;"; got != want {
		t.Errorf("Simple = %q, want %q (an undefined variable stays as text)", got, want)
	}
	sql, args := text.Bind(DollarPlaceholder)
	if want := "UPDATE t SET v = $1 + $2 WHERE k = $3 AND v <> $4::int;"; sql != want {
		t.Errorf("Bind($n) = %q, want %q", sql, want)
	}
	if want := []string{"v", "d", "k", "v"}; !reflect.DeepEqual(args, want) {
		t.Errorf("Bind args = %q, want %q", args, want)
	}
	sql, args = text.Bind(QuestionPlaceholder)
	if want := "UPDATE t SET v = ? + ? WHERE k = ? AND v <> ?::int;"; sql != want {
		t.Errorf("Bind(?) = %q, want %q", sql, want)
	}
	if len(args) != 4 {
		t.Errorf("Bind(?) binds %d, want 4: a variable used twice is bound twice", len(args))
	}
	if got := text.String(); got != "UPDATE t SET v = :v + :d WHERE k = :k AND v <> :v::int;" {
		t.Errorf("String = %q", got)
	}
	if DollarPlaceholder(12) != "$12" || DollarPlaceholder(0) != "$0" {
		t.Errorf("DollarPlaceholder: %q %q", DollarPlaceholder(12), DollarPlaceholder(0))
	}
}
