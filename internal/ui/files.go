package ui

import (
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// runFile serves a file of a run directory: /runs/REL/FILE where REL is a
// run the catalog lists. Nothing outside the directory of runs is ever
// served: the name must be a clean relative path (no "..", no leading
// slash), it must lie in a listed run, and it is opened through an
// os.Root, which also refuses symbolic links that lead out.
func (s *server) runFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/runs/")
	if !fs.ValidPath(name) || name == "." {
		http.Error(w, "not a file of a run", http.StatusNotFound)
		return
	}
	entries, err := results.List(s.opt.Dir)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if !inRun(entries, name) {
		http.Error(w, "not a file of a run", http.StatusNotFound)
		return
	}
	root, err := os.OpenRoot(s.opt.Dir)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer root.Close()
	http.ServeFileFS(w, r, root.FS(), name)
}

// inRun tells whether name is a run directory of entries or lies inside
// one.
func inRun(entries []results.CatalogEntry, name string) bool {
	for _, e := range entries {
		if name == e.Path || strings.HasPrefix(name, e.Path+"/") {
			return true
		}
	}
	return false
}
