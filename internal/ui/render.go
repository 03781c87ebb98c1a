package ui

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "?"
		}
		return t.UTC().Format("2006-01-02 15:04:05")
	},
	"join": strings.Join,
}

// render executes a page into a buffer first, so a template error is a
// 500 rather than half a page.
func render(w http.ResponseWriter, code int, name string, data any) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	b.WriteTo(w)
}

// showProblem answers a page that says what is wrong and links back to
// the history.
func showProblem(w http.ResponseWriter, code int, problem string) {
	render(w, code, "problem.html", problem)
}
