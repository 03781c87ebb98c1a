package ui

import "net/http"

// crossOrigin refuses a POST that a page of another site made the
// browser send (cross-site request forgery: a page elsewhere cannot read
// the token cookie, but the browser would attach it). The browser says
// where a request comes from (Sec-Fetch-Site, else Origin, checked
// against Host); a client that is no browser (curl) sends neither and
// passes, as it carries the token itself.
func crossOrigin(h http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "refused: the request came from a page of another site; use the buttons of the page dbgauge ui serves", http.StatusForbidden)
	}))
	return p.Handler(h)
}
