package dbms

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// A server URL may name several hosts, the nodes of a replicated cluster,
// in libpq's form:
//
//	postgres://user@h1:5432,h2:5432,h3:5432/db?target_session_attrs=read-write
//	mysql://user:pass@h1:3306,h2:3306,h3:3306/db
//
// A session opened through it goes to the first host that accepts it and
// has the attributes target_session_attrs asks for (libpq's values: any,
// read-write, primary, read-only, standby, prefer-standby), whatever the
// engine: dbgauge takes the parameter out of the URL and checks it itself
// (ReadOnlyReporter), so MySQL's driver never sees it.

// HostPort is one host of a URL.
type HostPort struct{ Host, Port string }

// String is host:port (port left out when the URL gives none).
func (h HostPort) String() string {
	if h.Port == "" {
		return h.Host
	}
	return net.JoinHostPort(h.Host, h.Port)
}

// Session attributes a multi-host URL may ask for.
var sessionAttrs = []string{"any", "read-write", "primary", "read-only", "standby", "prefer-standby"}

// splitHosts takes a host list out of a server URL's authority: it
// returns raw with only the first host (for url.Parse), the hosts, and
// where the list is written in raw. A single host gives one host.
func splitHosts(raw string, from int) (string, []HostPort, [2]int, error) {
	auth := raw[from:]
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	start := from
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		start += at + 1
		auth = auth[at+1:]
	}
	span := [2]int{start, start + len(auth)}
	if !strings.Contains(auth, ",") {
		return raw, nil, span, nil
	}
	var hosts []HostPort
	for _, part := range strings.Split(auth, ",") {
		h, p := part, ""
		if strings.HasPrefix(part, "[") && strings.HasSuffix(part, "]") {
			h = part[1 : len(part)-1]
		} else if strings.HasPrefix(part, "[") || strings.Count(part, ":") == 1 {
			var err error
			if h, p, err = net.SplitHostPort(part); err != nil {
				return "", nil, span, fmt.Errorf("host %q in the host list: %v", part, err)
			}
		}
		if h == "" {
			return "", nil, span, fmt.Errorf("an empty host in the host list %q", auth)
		}
		hosts = append(hosts, HostPort{h, p})
	}
	first := strings.Split(auth, ",")[0]
	return raw[:span[0]] + first + raw[span[1]:], hosts, span, nil
}

// takeSessionAttrs moves target_session_attrs from Query to SessionAttrs.
func (u *URL) takeSessionAttrs() error {
	v, ok := u.Query["target_session_attrs"]
	if !ok {
		return nil
	}
	u.Query.Del("target_session_attrs")
	a := v[len(v)-1]
	for _, known := range sessionAttrs {
		if a == known {
			u.SessionAttrs = a
			return nil
		}
	}
	return badURL(u.Raw, fmt.Sprintf("target_session_attrs=%s: use one of %s", a, strings.Join(sessionAttrs, ", ")))
}

// Nodes is how many hosts the URL names (1 for one host, a socket or a file).
func (u *URL) Nodes() int { return max(len(u.Hosts), 1) }

// Node is the URL of host i alone (0-based), with the same user, database
// and parameters; target_session_attrs, which dbgauge checks itself, is
// left out of its Raw.
func (u *URL) Node(i int) *URL {
	if len(u.Hosts) == 0 {
		return u
	}
	n := *u
	h := u.Hosts[i]
	n.Host, n.Port = h.Host, h.Port
	n.Hosts = []HostPort{h}
	n.Raw = withoutParam(u.Raw[:u.hostSpan[0]]+h.String()+u.Raw[u.hostSpan[1]:], "target_session_attrs")
	n.hostSpan = [2]int{u.hostSpan[0], u.hostSpan[0] + len(h.String())}
	n.Query = url.Values{}
	for k, v := range u.Query {
		n.Query[k] = append([]string(nil), v...)
	}
	return &n
}

// Rotated is the URL with its hosts in another order: host first leads,
// the others follow in their order, wrapping around (so that a load's
// clients spread over the nodes and each falls back to the next).
func (u *URL) Rotated(first int) *URL {
	if len(u.Hosts) < 2 {
		return u
	}
	hosts := append(append([]HostPort(nil), u.Hosts[first:]...), u.Hosts[:first]...)
	return u.WithHosts(hosts)
}

// WithHosts is the URL naming hosts instead of its own.
func (u *URL) WithHosts(hosts []HostPort) *URL {
	n := *u
	list := make([]string, len(hosts))
	for i, h := range hosts {
		list[i] = h.String()
	}
	joined := strings.Join(list, ",")
	n.Raw = u.Raw[:u.hostSpan[0]] + joined + u.Raw[u.hostSpan[1]:]
	n.hostSpan = [2]int{u.hostSpan[0], u.hostSpan[0] + len(joined)}
	n.Hosts = append([]HostPort(nil), hosts...)
	n.Host, n.Port = hosts[0].Host, hosts[0].Port
	return &n
}

// WithSessionAttrs is the URL asking for sessions with attrs (one of
// libpq's target_session_attrs values; "" or any: every host will do).
func (u *URL) WithSessionAttrs(attrs string) *URL {
	n := *u
	n.SessionAttrs = attrs
	raw := withoutParam(u.Raw, "target_session_attrs")
	if attrs != "" && attrs != "any" {
		sep := "?"
		if strings.Contains(raw, "?") {
			sep = "&"
		}
		raw += sep + "target_session_attrs=" + attrs
	}
	n.Raw = raw
	return &n
}

// withoutParam removes a query parameter from a URL as written, keeping
// the rest of its spelling.
func withoutParam(raw, name string) string { return withParam(raw, name, "") }

// withParam gives every value of a query parameter of a URL as written
// the text value (none: the parameter is removed), keeping the rest of
// its spelling. A name is compared as the query's parser reads it
// (percent-escapes decoded).
func withParam(raw, name, value string) string {
	q := strings.Index(raw, "?")
	if q < 0 {
		return raw
	}
	var kept []string
	for _, kv := range strings.Split(raw[q+1:], "&") {
		k, _, _ := strings.Cut(kv, "=")
		if key, err := url.QueryUnescape(k); err != nil || key != name {
			kept = append(kept, kv)
		} else if value != "" {
			kept = append(kept, k+"="+value)
		}
	}
	if len(kept) == 0 {
		return raw[:q]
	}
	return raw[:q+1] + strings.Join(kept, "&")
}
