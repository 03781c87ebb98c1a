package experiment

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// engineTimeSession names the session a run reads the engine's own time
// of, in the manifest's instrumentation.
const engineTimeSession = "the engine-time session (once readied)"

// readInstrumentation reads what e records of its session's statements
// (dbms.Instrumented), nil for an engine that cannot say.
func readInstrumentation(ctx context.Context, e dbms.Engine) (map[string]string, error) {
	in, ok := e.(dbms.Instrumented)
	if !ok {
		return nil, nil
	}
	s, err := in.Instrumentation(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s's statement instrumentation: %w", e.Name(), err)
	}
	return s, nil
}

// addInstrumentation records a session's instrumentation in the
// manifest, replacing the same session's (a resumed run records it
// again); settings nil records nothing.
func addInstrumentation(man *results.Manifest, session string, settings map[string]string) {
	if settings == nil {
		return
	}
	for i, r := range man.Instrumentation {
		if r.Session == session {
			man.Instrumentation[i].Settings = settings
			return
		}
	}
	man.Instrumentation = append(man.Instrumentation, results.Instrumentation{Session: session, Settings: settings})
}

// noteEngineTime records the instrumentation of a run's engine-time
// session (t as keepTiming kept it) in the manifest, and writes it.
func (o *opened) noteEngineTime(session string, t *results.EngineTiming) error {
	if t == nil || t.Instrumentation == nil {
		return nil
	}
	addInstrumentation(o.man, session, t.Instrumentation)
	return o.run.WriteJSON(results.ManifestFile, o.man)
}
