package ui

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"
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

// minTokenBits is the least a token off loopback must hold: 16 random
// bytes, as newSecret makes (32 hex digits, 22 of base64).
const minTokenBits = 128

// CheckToken refuses a token too short to be 16 random bytes, counted
// generously: each character as worth the bits of the classes of
// characters the token uses (hex digits 4, letters and digits about 6),
// and a token of fewer than 8 distinct characters as not random at all.
// A person's word or a short string anyone may guess would let every
// machine that reaches the address launch runs with any --db.
// On loopback, where a token is not needed, any token is taken.
func CheckToken(addr, token string) error {
	if host, _, err := net.SplitHostPort(addr); err != nil || isLoopback(host) || token == "" {
		return nil // CheckListen's to judge
	}
	switch bits := tokenBits(token); {
	case bits == 0:
		return errors.New("the token has fewer than 8 distinct characters, which 16 random bytes never have")
	case bits < minTokenBits:
		return fmt.Errorf("the token holds at most %.0f random bits, less than the %d of 16 random bytes", bits, minTokenBits)
	}
	return nil
}

func tokenBits(token string) float64 {
	distinct := map[rune]bool{}
	var digit, lowerHex, upperHex, lower, upper, other bool
	for _, c := range token {
		distinct[c] = true
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			lowerHex = true
		case c >= 'A' && c <= 'F':
			upperHex = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		default:
			other = true
		}
	}
	if len(distinct) < 8 {
		return 0
	}
	alphabet := 0
	switch {
	case !lowerHex && !upperHex && !lower && !upper && !other:
		alphabet = 10 // digits
	case !lower && !upper && !other && !(lowerHex && upperHex):
		alphabet = 16 // hex, in one case
	default:
		for _, c := range []struct {
			used bool
			n    int
		}{{digit, 10}, {lower || lowerHex, 26}, {upper || upperHex, 26}, {other, 32}} {
			if c.used {
				alphabet += c.n
			}
		}
	}
	return float64(utf8.RuneCountInString(token)) * math.Log2(float64(alphabet))
}
