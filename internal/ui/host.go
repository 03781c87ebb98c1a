package ui

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// loopbackNames are the names a browser on this machine reaches a
// loopback listener by.
var loopbackNames = []string{"127.0.0.1", "localhost", "::1"}

// hostNames are the names (host, port) a request may give in its Host
// header for a listener at addr (its real address, the port chosen), with
// extra the names the user declared (--host NAME or NAME:PORT, as a
// reverse proxy passes them on: NAME alone is any port).
type hostNames struct {
	port  string
	names map[string]bool // lower case; the listener's port
	any   map[string]bool // lower case; any port
	exact map[string]bool // NAME:PORT declared, lower case
}

// allowedHosts are the names of a listener at addr: for a loopback
// address, the loopback names; for an unspecified one (0.0.0.0, [::]),
// the loopback names and the machine's own addresses; for any other,
// that address itself. A browser sends the name it resolved, so a page
// that rebinds its own name to this address (DNS rebinding) still sends
// its own name, which is none of these.
func allowedHosts(addr string, extra []string) (*hostNames, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	h := &hostNames{port: port, names: map[string]bool{strings.ToLower(host): true}, any: map[string]bool{}, exact: map[string]bool{}}
	ip := net.ParseIP(host)
	if isLoopback(host) || ip.IsUnspecified() {
		for _, n := range loopbackNames {
			h.names[n] = true
		}
	}
	if ip.IsUnspecified() {
		addrs, err := net.InterfaceAddrs()
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				h.names[n.IP.String()] = true
			}
		}
	}
	for _, e := range extra {
		e = strings.ToLower(e)
		if _, _, err := net.SplitHostPort(e); err == nil {
			h.exact[e] = true
		} else {
			h.any[strings.Trim(e, "[]")] = true
		}
	}
	return h, nil
}

// admits tells whether a Host header names this listener.
func (h *hostNames) admits(header string) bool {
	header = strings.ToLower(header)
	if h.exact[header] {
		return true
	}
	host, port, err := net.SplitHostPort(header)
	if err != nil { // no port: the scheme's default
		host, port = strings.Trim(header, "[]"), "80"
	}
	return h.any[host] || (port == h.port && h.names[host])
}

// checkHost refuses, before any handler, a request whose Host header does
// not name this listener (421 Misdirected Request and one line): a page
// of another site that rebinds its name to 127.0.0.1 would otherwise read
// the pages (the forms' secret with them) and post to them as if it were
// this interface's own.
func checkHost(hosts *hostNames, h http.Handler) http.Handler {
	if hosts == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hosts.admits(r.Host) {
			http.Error(w, "refused: Host "+strconv.Quote(r.Host)+" is not a name of this dbgauge ui (open it by the address it printed, or declare the name with dbgauge ui --host NAME)", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}
