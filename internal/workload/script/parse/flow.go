package parse

import "fmt"

// conditionals checks the nesting of \if chains, as pgbench's
// CheckConditional does, and sets each chain's Next and End jumps.
func (p *parser) conditionals(s *Script) error {
	type chain struct {
		branches []int // the \if, then each \elif and \else
		sawElse  bool
	}
	var stack []*chain
	cmds := s.Commands
	for i := range cmds {
		c := &cmds[i]
		var top *chain
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch c.Kind {
		case KindIf:
			stack = append(stack, &chain{branches: []int{i}})
		case KindElif, KindElse:
			if top == nil {
				return p.at(c.Pos, "\\%s without matching \\if: open the chain with \\if EXPRESSION", c.Kind)
			}
			if top.sawElse {
				return p.at(c.Pos, "\\%s after \\else: an \\if chain ends with its \\else branch", c.Kind)
			}
			cmds[top.branches[len(top.branches)-1]].Next = i
			top.branches = append(top.branches, i)
			top.sawElse = c.Kind == KindElse
		case KindEndIf:
			if top == nil {
				return p.at(c.Pos, "\\endif without matching \\if: remove it, or open the chain with \\if EXPRESSION")
			}
			last := top.branches[len(top.branches)-1]
			if cmds[last].Kind != KindElse {
				cmds[last].Next = i
			}
			for _, b := range top.branches {
				cmds[b].End = i
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		open := cmds[stack[len(stack)-1].branches[0]]
		return p.at(open.Pos, "\\if without matching \\endif: close the chain with \\endif")
	}
	return nil
}

func (p *parser) at(pos Pos, format string, args ...any) *Error {
	return &Error{File: p.name, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// successors calls add with each command that may run after command i
// (len(Commands) is the end of the script). Every jump goes forward, so
// the commands in index order are a topological order of the flow.
func (s *Script) successors(i int, add func(int)) {
	c := s.Commands[i]
	switch c.Kind {
	case KindIf:
		add(i + 1)
		s.falseTargets(c.Next, add)
	case KindElif, KindElse:
		add(c.End + 1)
	default:
		add(i + 1)
	}
}

// falseTargets follows a false condition to the branch command at n: an
// \elif is evaluated in turn, an \else or \endif is entered.
func (s *Script) falseTargets(n int, add func(int)) {
	add(n + 1)
	if c := s.Commands[n]; c.Kind == KindElif {
		s.falseTargets(c.Next, add)
	}
}

// pipeState is what may hold before a command: outside a pipeline, or
// inside the one a \startpipeline opened.
type pipeState struct {
	reached bool
	out     bool
	open    int // the \startpipeline of an open pipeline, or -1
}

func (a pipeState) join(b pipeState) pipeState {
	if !a.reached {
		return b
	}
	if !b.reached {
		return a
	}
	o := a.open
	if o < 0 || b.open >= 0 && b.open < o {
		o = b.open
	}
	return pipeState{reached: true, out: a.out || b.out, open: o}
}

// pipelines refuses a pipeline misused on any path through the \if
// branches: \startpipeline inside a pipeline, \syncpipeline or \endpipeline
// outside one, \gset or \aset inside one, or the script's end with one open.
// pgbench finds these when the script runs and aborts the client
// (docs/pgbench-scripts.md §4).
func (p *parser) pipelines(s *Script) error {
	n := len(s.Commands)
	states := make([]pipeState, n+1)
	for i := range states {
		states[i].open = -1
	}
	states[0] = pipeState{reached: true, out: true, open: -1}
	somePath := func(st pipeState) string {
		if st.out && st.open >= 0 {
			return " on some path through the \\if branches"
		}
		return ""
	}
	for i := 0; i < n; i++ {
		st := states[i]
		if !st.reached {
			continue
		}
		c := s.Commands[i]
		next := st
		switch c.Kind {
		case KindStartPipeline:
			if st.open >= 0 {
				return p.at(c.Pos, "\\startpipeline: already in pipeline mode%s (the pipeline opened at %s): end it with \\endpipeline first", somePath(st), s.Commands[st.open].Pos)
			}
			next = pipeState{reached: true, open: i}
		case KindSyncPipeline, KindEndPipeline:
			if st.out {
				return p.at(c.Pos, "\\%s: not in pipeline mode%s: open the pipeline with \\startpipeline", c.Kind, somePath(st))
			}
			if c.Kind == KindEndPipeline {
				next = pipeState{reached: true, out: true, open: -1}
			}
		case KindSQL:
			if c.SQL.Capture != CaptureNone && st.open >= 0 {
				name := "gset"
				if c.SQL.Capture == CaptureAset {
					name = "aset"
				}
				return p.at(p.capturePos[i], "\\%s is not allowed in pipeline mode%s (the pipeline opened at %s): move the query out of the pipeline", name, somePath(st), s.Commands[st.open].Pos)
			}
		}
		s.successors(i, func(j int) { states[j] = states[j].join(next) })
	}
	if end := states[n]; end.open >= 0 {
		return p.at(s.Commands[end.open].Pos, "\\startpipeline without \\endpipeline: end of script reached with pipeline open%s", somePath(end))
	}
	return nil
}

// Next returns the command to run after command i, for every command but
// \if (see Branch): an \elif or \else reached by running off the end of a
// taken branch goes past its \endif; everything else goes to i+1. The script
// ends at len(Commands).
func (s *Script) Next(i int) int {
	switch c := &s.Commands[i]; c.Kind {
	case KindElif, KindElse:
		return c.End + 1
	}
	return i + 1
}

// Branch picks the branch of the \if chain whose \if is at i. truth
// evaluates the condition of an \if or \elif command (the runtime's
// evaluator, pgbench's truth: NULL and zero are false); Branch calls it on
// the \if, then on each \elif in turn until one is true, and returns the
// index of the first command of the branch taken, or of the command after
// the \endif when none is.
func (s *Script) Branch(i int, truth func(c *Command) (bool, error)) (int, error) {
	for {
		c := &s.Commands[i]
		ok, err := truth(c)
		if err != nil || ok {
			return i + 1, err
		}
		if next := &s.Commands[c.Next]; next.Kind != KindElif {
			return c.Next + 1, nil
		}
		i = c.Next
	}
}
