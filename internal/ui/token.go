package ui

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// tokenCookie carries the token after the first page: a person opens the
// URL the command printed (…/?token=T) once, and the links need not carry
// it.
const tokenCookie = "dbgauge_token"

// requireToken answers 401 to a request that carries no token equal to
// token: in the query (?token=T, which sets the cookie), the cookie, or
// the header Authorization: Bearer T. An empty token lets every request
// through (loopback only, see CheckListen).
func requireToken(token string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte(token)
	ok := func(got string) bool { return subtle.ConstantTimeCompare([]byte(got), want) == 1 }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query().Get("token"); q != "" && ok(q) {
			http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			h.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(tokenCookie); err == nil && ok(c.Value) {
			h.ServeHTTP(w, r)
			return
		}
		if b, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found && ok(b) {
			h.ServeHTTP(w, r)
			return
		}
		http.Error(w, "a token is needed: open the address dbgauge ui printed (it ends in ?token=...)", http.StatusUnauthorized)
	})
}
