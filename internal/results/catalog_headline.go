package results

import (
	"fmt"
)

// Headline is the one figure the catalog shows for a run: what a person
// scanning a list of runs wants to see first.
type Headline struct {
	// Label says what the figure is ("DSI", "geomean of 42 query
	// medians", ...).
	Label string
	// Value is the figure in the unit Text shows; nil when it is not one
	// number (A/B verdict counts) or there is none (an incomplete run).
	Value *float64
	// Text is the figure as shown, with its unit.
	Text string
}

// HeadlineOf is the headline figure of a stored run, as its experiment's
// kind picks it; a run without results.json has an empty headline.
func HeadlineOf(s *Stored) Headline {
	if s.Results == nil {
		return Headline{}
	}
	k, ok := KindFor(s.Results)
	if !ok {
		return Headline{}
	}
	return k.Headline(s.Results)
}

func number(label string, v float64, format string) Headline {
	return Headline{Label: label, Value: &v, Text: fmt.Sprintf(format, v)}
}
