package parse

import (
	"reflect"
	"testing"
	"time"
)

func TestSet(t *testing.T) {
	var got []string
	opts := Options{ParseExpr: func(src string) (any, error) { got = append(got, src); return len(got), nil }}
	s, err := Parse("t.sql", "\\set aid random(1, 100000 * :scale)\n\\SET b 1 + \\\n   2\n\\set c :aid", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" random(1, 100000 * :scale)", " 1 +      2", " :aid"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the hook got %q, want %q (continuations blanked, offsets kept)", got, want)
	}
	c := s.Commands[1]
	if c.Kind != KindSet || c.Var != "b" || c.Expr != 2 || c.ExprPos != (Pos{2, 7}) || c.Pos != (Pos{2, 1}) {
		t.Errorf("second \\set = %+v", c)
	}
	if c.Text != "\\SET b 1 + \\\n   2" {
		t.Errorf("Text = %q", c.Text)
	}
	if s.Commands[2].Pos != (Pos{4, 1}) {
		t.Errorf("third command at %v, want 4:1 (after the continued line)", s.Commands[2].Pos)
	}
}

func TestSleep(t *testing.T) {
	cases := []struct {
		src  string
		want Sleep
	}{
		{`\sleep 2`, Sleep{N: 2, Unit: time.Second}},
		{`\sleep 10 ms`, Sleep{N: 10, Unit: time.Millisecond}},
		{`\sleep 10ms`, Sleep{N: 10, Unit: time.Millisecond}},
		{`\sleep 100 US`, Sleep{N: 100, Unit: time.Microsecond}},
		{`\sleep 0 s`, Sleep{N: 0, Unit: time.Second}},
		{`\sleep -5`, Sleep{N: -5, Unit: time.Second}},
		{`\sleep :one ms`, Sleep{Var: "one", Unit: time.Millisecond}},
		{`\sleep :zero`, Sleep{Var: "zero", Unit: time.Second}},
	}
	for _, c := range cases {
		s := mustParse(t, c.src)
		if got := s.Commands[0].Sleep; got != c.want || s.Commands[0].Kind != KindSleep {
			t.Errorf("%s: %+v, want %+v", c.src, got, c.want)
		}
	}
}

func TestShell(t *testing.T) {
	// From pgbench's backslash-commands test: a continued \setshell.
	s := mustParse(t, "\\setshell another_one\\\n  echo \\\n    :one\n\\shell echo ::foo :bar baz\n")
	sh := s.Commands[0]
	if sh.Kind != KindSetShell || sh.Var != "another_one" || !reflect.DeepEqual(sh.Words, []Word{{Lit: "echo"}, {Var: "one"}}) {
		t.Errorf("\\setshell = %+v", sh)
	}
	if got, want := s.Commands[1].Words, []Word{{Lit: "echo"}, {Lit: ":foo"}, {Var: "bar"}, {Lit: "baz"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("\\shell words = %+v, want %+v", got, want)
	}
}

func TestCaptures(t *testing.T) {
	s := mustParse(t, "SELECT 1 AS a \\gset\nSELECT 2 AS b;\n\\gset p_\n\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\nSELECT 3 \\ASET q")
	want := []struct {
		c      Capture
		prefix string
	}{{CaptureGset, ""}, {CaptureGset, "p_"}, {CaptureAset, ""}, {CaptureAset, "q"}}
	if len(s.Commands) != len(want) {
		t.Fatalf("%d commands (%s), want %d: \\gset and \\aset end the command before them", len(s.Commands), shape(s), len(want))
	}
	for i, w := range want {
		if sql := s.Commands[i].SQL; sql.Capture != w.c || sql.Prefix != w.prefix {
			t.Errorf("command %d: capture %v prefix %q, want %v %q", i, sql.Capture, sql.Prefix, w.c, w.prefix)
		}
	}
	if n := len(s.Commands[2].SQL.Statements); n != 2 {
		t.Errorf("the \\aset compound has %d statements, want 2", n)
	}
}

func TestIfJumps(t *testing.T) {
	src := `\if 1
SELECT 1;
\elif 2
  \if 3
  SELECT 2;
  \endif
\elif 4
\else
SELECT 3;
\endif
SELECT 4;
`
	s := mustParse(t, src)
	//  0 if  1 SQL  2 elif  3 if  4 SQL  5 endif  6 elif  7 else  8 SQL  9 endif  10 SQL
	want := []struct{ next, end int }{
		0: {2, 9}, 2: {6, 9}, 3: {5, 5}, 6: {7, 9}, 7: {0, 9},
	}
	if shape(s) != "if SQL elif if SQL endif elif else SQL endif SQL" {
		t.Fatalf("shape %s", shape(s))
	}
	for i, w := range want {
		c := s.Commands[i]
		if c.Kind != KindIf && c.Kind != KindElif && c.Kind != KindElse {
			continue
		}
		if c.Next != w.next || c.End != w.end {
			t.Errorf("command %d (%s): Next %d End %d, want %d %d", i, c.Kind, c.Next, c.End, w.next, w.end)
		}
	}
	// The flow: every command reachable, the end reachable from each branch.
	var succ [][]int
	for i := range s.Commands {
		var out []int
		s.successors(i, func(j int) { out = append(out, j) })
		succ = append(succ, out)
	}
	wantSucc := [][]int{{1, 3, 7, 8}, {2}, {10}, {4, 6}, {5}, {6}, {10}, {10}, {9}, {10}, {11}}
	if !reflect.DeepEqual(succ, wantSucc) {
		t.Errorf("successors = %v, want %v", succ, wantSucc)
	}
}

func TestPipelines(t *testing.T) {
	// From pgbench's tests: ten queries in a pipeline; and a transaction in one.
	for _, src := range []string{
		"\\startpipeline\n" + "select 1;\n" + "select 1;\n" + "\\endpipeline\n",
		"\\startpipeline\nBEGIN ISOLATION LEVEL SERIALIZABLE;\nselect 1;\n\\syncpipeline\nselect 2;\nEND;\n\\endpipeline\n",
		"\\if :c\n\\startpipeline\nselect 1;\n\\endpipeline\n\\else\nselect 1 \\gset\n\\endif\n",
	} {
		s := mustParse(t, src)
		if s.Commands[0].Kind != KindStartPipeline && s.Commands[0].Kind != KindIf {
			t.Errorf("%q: %s", src, shape(s))
		}
	}
}

func TestMetaNamesIgnoreCase(t *testing.T) {
	s := mustParse(t, "\\If 1\n\\StartPipeline\n\\EndPipeline\n\\ELSE\n\\Sleep 1\n\\ENDIF")
	if got := shape(s); got != "if startpipeline endpipeline else sleep endif" {
		t.Errorf("shape %s", got)
	}
}

func TestLoneBackslashIgnored(t *testing.T) {
	// pgbench reads nothing from a backslash with no command after it.
	s := mustParse(t, "SELECT 1;\n\\\n\\  \nSELECT 2;")
	if got := shape(s); got != "SQL SQL" {
		t.Errorf("shape %s, want SQL SQL", got)
	}
}

// TestRunFlow walks a script as a runtime would, with Branch and Next, for
// each truth of its conditions, and checks the commands it runs.
func TestRunFlow(t *testing.T) {
	src := "SELECT 0;\n\\if a\nSELECT 1;\n\\elif b\nSELECT 2;\n\\if c\nSELECT 3;\n\\endif\n\\else\nSELECT 4;\n\\endif\nSELECT 5;\n"
	s := mustParse(t, src)
	run := func(truths map[string]bool) []string {
		var ran []string
		for pc := 0; pc < len(s.Commands); {
			c := &s.Commands[pc]
			switch c.Kind {
			case KindIf:
				next, err := s.Branch(pc, func(c *Command) (bool, error) { return truths[c.Expr.(string)], nil })
				if err != nil {
					t.Fatal(err)
				}
				pc = next
				continue
			case KindSQL:
				ran = append(ran, c.SQL.Statements[0].String())
			}
			pc = s.Next(pc)
		}
		return ran
	}
	cases := []struct {
		truths map[string]bool
		want   []string
	}{
		{map[string]bool{"a": true}, []string{"SELECT 0", "SELECT 1", "SELECT 5"}},
		{map[string]bool{"b": true}, []string{"SELECT 0", "SELECT 2", "SELECT 5"}},
		{map[string]bool{"b": true, "c": true}, []string{"SELECT 0", "SELECT 2", "SELECT 3", "SELECT 5"}},
		{map[string]bool{}, []string{"SELECT 0", "SELECT 4", "SELECT 5"}},
		{map[string]bool{"a": true, "b": true, "c": true}, []string{"SELECT 0", "SELECT 1", "SELECT 5"}},
	}
	for _, c := range cases {
		if got := run(c.truths); !reflect.DeepEqual(got, c.want) {
			t.Errorf("truths %v: ran %q, want %q", c.truths, got, c.want)
		}
	}
}

// TestCRLF reads a script saved with Windows line ends.
func TestCRLF(t *testing.T) {
	s := mustParse(t, "\\set a 1\r\nSELECT :a\r\n  , 2;\r\n\\sleep 1 ms\r\n\\shell echo \\\r\n  x\r\nSELECT 3 \\gset p\r\n")
	if got := shape(s); got != "set SQL sleep shell SQL" {
		t.Fatalf("shape %s", got)
	}
	if s.Commands[0].Expr != "1" || s.Commands[2].Sleep.Unit != time.Millisecond {
		t.Errorf("\\set %q, \\sleep %+v", s.Commands[0].Expr, s.Commands[2].Sleep)
	}
	if got := s.Commands[3].Words; !reflect.DeepEqual(got, []Word{{Lit: "echo"}, {Lit: "x"}}) {
		t.Errorf("\\shell words %+v (a backslash before \\r\\n continues the line)", got)
	}
	if p := s.Commands[4].SQL.Prefix; p != "p" {
		t.Errorf("\\gset prefix %q", p)
	}
	if s.Commands[1].Text != "SELECT :a" || s.Commands[2].Text != "\\sleep 1 ms" {
		t.Errorf("texts %q %q", s.Commands[1].Text, s.Commands[2].Text)
	}
}
