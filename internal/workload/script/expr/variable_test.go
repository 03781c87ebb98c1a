package expr

import "testing"

// Int tells a computed integer from text that reads as one: a runtime
// binds the first as a number and the second as the text it was given.
func TestVariableInt(t *testing.T) {
	var vs Variables
	vs.SetValue("n", Int(7))
	vs.SetText("s", "007")
	vs.SetValue("d", Double(1.5))
	n, _ := vs.Lookup("n")
	n.Text() // formatting it keeps it a computed integer
	if i, ok := n.Int(); !ok || i != 7 {
		t.Errorf("n: %d, %v; want 7, true", i, ok)
	}
	s, _ := vs.Lookup("s")
	if v, err := s.Value("s"); err != nil || v.IntVal() != 7 {
		t.Fatalf("s reads as %v, %v", v, err)
	}
	if _, ok := s.Int(); ok {
		t.Error("s, text read as an integer, says it is a computed one")
	}
	if d, _ := vs.Lookup("d"); func() bool { _, ok := d.Int(); return ok }() {
		t.Error("d, a double, says it is an integer")
	}
}

// CopyTo makes the copy equal, drops what the source lacks, and does not
// share storage: a retry's restore neither keeps a variable the failed try
// added nor sees a later change to the live set.
func TestVariablesCopyTo(t *testing.T) {
	var live, saved Variables
	live.SetValue("a", Int(1))
	live.SetText("b", "x")
	live.CopyTo(&saved)
	live.SetValue("a", Int(2))
	live.SetText("c", "new")
	saved.CopyTo(&live)
	if got := live.Names(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("names after restore %v, want [a b]", got)
	}
	if a, _ := live.Text("a"); a != "1" {
		t.Errorf("a = %s after restore, want 1", a)
	}
	if allocs := testing.AllocsPerRun(100, func() { live.CopyTo(&saved) }); allocs != 0 {
		t.Errorf("CopyTo into a set of the same names allocates %.0f times", allocs)
	}
	// Between sets of the same names (copied in order, no look-up) the
	// values still go over and the storage stays apart.
	live.SetValue("a", Int(3))
	saved.CopyTo(&live)
	saved.SetText("b", "changed")
	if a, _ := live.Text("a"); a != "1" {
		t.Errorf("a = %s after the second restore, want 1", a)
	}
	if b, _ := live.Text("b"); b != "x" {
		t.Errorf("b = %s, a change to the saved set showed in the live one", b)
	}
	if c := live.Clone(); c.Len() != 2 || func() string { a, _ := c.Text("a"); return a }() != "1" {
		t.Errorf("Clone: %v", c.Names())
	}
}

// Generation changes when a name is made or dropped, not when a value
// changes or a copy keeps the same names: what lets a caller keep the
// *Variable Lookup gave it.
func TestVariablesGeneration(t *testing.T) {
	var live, saved Variables
	live.SetValue("a", Int(1))
	g := live.Generation()
	live.SetValue("a", Int(2))
	live.SetText("a", "3")
	saved.CopyTo(&live) // drops a
	if live.Generation() == g {
		t.Fatal("dropping a kept the generation")
	}
	live.SetValue("a", Int(1))
	live.CopyTo(&saved)
	g = live.Generation()
	saved.CopyTo(&live)
	live.SetValue("a", Int(5))
	if live.Generation() != g {
		t.Error("a copy of the same names or a new value changed the generation")
	}
	live.SetValue("b", Int(1))
	if live.Generation() == g {
		t.Error("a new name kept the generation")
	}
}

// IntArg boxes a computed integer once per value; text stays text.
func TestVariableIntArg(t *testing.T) {
	var vs Variables
	vs.SetValue("n", Int(70000))
	vs.SetText("s", "007")
	n, _ := vs.Lookup("n")
	if a, ok := n.IntArg(); !ok || a != any(int64(70000)) {
		t.Fatalf("IntArg %v, %v; want 70000, true", a, ok)
	}
	if allocs := testing.AllocsPerRun(100, func() { n.IntArg() }); allocs != 0 {
		t.Errorf("IntArg of the same value allocates %.0f times", allocs)
	}
	vs.SetValue("n", Int(80000))
	if a, _ := n.IntArg(); a != any(int64(80000)) {
		t.Errorf("IntArg after a new value: %v, want 80000", a)
	}
	if s, _ := vs.Lookup("s"); func() bool { _, ok := s.IntArg(); return ok }() {
		t.Error("text says it is a computed integer")
	}
}
