package ui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
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

// guard admits a POST only from the interface's own pages, so that
// another site open in the same browser cannot launch a run through it
// (the token's cookie would go along, and on loopback there may be no
// token at all): the request's Origin, when the browser sends one, must
// be this server, and the form must carry the server's secret, which only
// its own pages hold. It parses the form.
func (s *server) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			if u, err := url.Parse(o); err != nil || u.Host != r.Host {
				http.Error(w, "refused: the form was sent from another site ("+o+")", http.StatusForbidden)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
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
