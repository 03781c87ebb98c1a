package ui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
)

// newSecret is the server's secret for its forms: random, made at start,
// never stored.
func newSecret() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand panics rather)
	return hex.EncodeToString(b)
}

// maxForm bounds a posted form.
const maxForm = 1 << 20

// guard admits a form's POST only when it carries the server's secret,
// which only the interface's own pages hold: beside crossOrigin (which
// refuses what a browser says another site sent), it also refuses a form
// posted by a browser that says nothing of where the request comes from.
// It parses the form.
func (s *server) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var err error
		if isMultipart(r) {
			r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
			err = r.ParseMultipartForm(maxForm)
			if r.MultipartForm != nil {
				defer r.MultipartForm.RemoveAll()
			}
		} else {
			r.Body = http.MaxBytesReader(w, r.Body, maxForm)
			err = r.ParseForm()
		}
		if err != nil {
			http.Error(w, "the form could not be read: "+err.Error(), http.StatusBadRequest)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) != 1 {
			http.Error(w, "refused: the form is not one of this server's pages (open the form again and send it from there)", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

// writes refuses, under --read-only, what would start a run or write a
// file: 403 and one line.
func (s *server) writes(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opt.ReadOnly {
			http.Error(w, "refused: dbgauge ui runs with --read-only, which launches no run and saves no profile", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}
