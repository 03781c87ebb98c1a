package experiment

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// nodeSeries is one node's charted measures over a scale's cycles: a
// point per second read, each measure aligned with the times (0 where a
// measure was not there yet or missing from a read), a counter as its
// increase since the point before.
type nodeSeries struct {
	t        []float64
	measures []results.ClusterMeasureSeries
	at       map[string]int     // measure name -> index in measures
	prev     map[string]float64 // counters' last values
}

func newNodeSeries() *nodeSeries {
	return &nodeSeries{at: map[string]int{}, prev: map[string]float64{}}
}

// add takes the charted measures of one read, t seconds into the scale.
func (s *nodeSeries) add(t float64, ms []dbms.Measure) {
	n := len(s.t)
	s.t = append(s.t, t)
	for _, m := range ms {
		if m.Chart == "" {
			continue
		}
		i, ok := s.at[m.Name]
		if !ok {
			i = len(s.measures)
			s.at[m.Name] = i
			s.measures = append(s.measures, results.ClusterMeasureSeries{Name: m.Name, Chart: string(m.Chart), Counter: m.Counter, Values: make([]float64, n)})
		}
		v := m.Value
		if m.Counter {
			v = increase(s.prev, m)
		}
		s.measures[i].Values = append(s.measures[i].Values, v)
	}
	for i := range s.measures { // a measure this read lacked
		if len(s.measures[i].Values) == n {
			s.measures[i].Values = append(s.measures[i].Values, 0)
		}
	}
}

// clusterSeries is the scale's series of every node; nil when no node
// had a charted measure.
func clusterSeries(start time.Time, nodes []*nodeSeries) *results.ClusterSeries {
	out := &results.ClusterSeries{Start: start.UTC()}
	charted := false
	for i, s := range nodes {
		out.Nodes = append(out.Nodes, results.ClusterNodeSeries{Node: i, T: s.t, Measures: s.measures})
		charted = charted || len(s.measures) > 0
	}
	if !charted {
		return nil
	}
	return out
}
