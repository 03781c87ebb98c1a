package ui

import (
	"net/http"
)

// launch answers POST /new/{experiment}: the form's values go through
// the command line's own checks first; refused, the form comes back with
// the command line's line and nothing starts. Accepted, the run starts
// as a process of its own (jobs.go), the dbgauge binary with the same command line and
// --out a new run directory, so that it writes the same run directory
// and journal as the command line; the browser goes on to the run's live
// page.
func (s *server) launch(w http.ResponseWriter, r *http.Request) {
	e, v, k, ok := s.posted(w, r)
	if !ok {
		return
	}
	p := s.page(e, v, k)
	if p.Problem != "" {
		render(w, http.StatusBadRequest, "form.html", p)
		return
	}
	a := args(e, v)
	argv, env, err := s.opt.Experiments.Child(a)
	if err != nil {
		p.Problem = err.Error()
		render(w, http.StatusBadRequest, "form.html", p)
		return
	}
	j, err := s.jobs.start(s.opt.Binary, e.Name, argv, env, s.opt.Experiments.Redact(a))
	if err != nil {
		showProblem(w, http.StatusInternalServerError, "the run did not start: "+err.Error())
		return
	}
	http.Redirect(w, r, runURL(j.Rel, "live"), http.StatusSeeOther)
}
