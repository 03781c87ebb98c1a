package dbms

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// URL is a parsed engine URL. Two forms exist:
//
//	scheme://user:pass@host:port/database   (servers)
//	scheme:PATH                             (embedded files; duckdb::memory:)
//
// A server on this machine may be named by its Unix-domain socket instead of
// host and port, in the form its own clients use:
//
//	postgres:///database?host=/socket/directory   (libpq's form)
//	mysql://user:pass@unix(/path/to/socket)/database   (the MySQL DSN's form)
type URL struct {
	Raw      string
	Scheme   string
	User     string
	Password string
	// HasPass: the URL itself gives a password (Raw holds it).
	HasPass bool
	// PasswordOrigin names where a password the URL does not give came
	// from ($DBGAUGE_DB_PASSWORD, ~/.my.cnf, ...; password.go); "" when
	// the URL gives it or none was found.
	PasswordOrigin string
	Host           string // without port
	Port           string
	// Database is the database name for servers (without the leading slash;
	// for Firebird it is the database file path, absolute when it begins with /).
	Database string
	// Socket is the Unix-domain socket the URL names instead of a host:
	// the socket file for MySQL's unix(PATH), the directory for libpq's
	// host=/dir. Empty for TCP.
	Socket string
	// IOTimeout is the URL's io_timeout (dbgauge's own parameter, taken out
	// of Query): how long a server adapter's read or write may wait for the
	// server before the call fails (0: the adapter's default).
	IOTimeout time.Duration
	// Hosts are the servers a TCP URL names, in its order: one, or a
	// replicated cluster's nodes (url_hosts.go). Host and Port are the
	// first's.
	Hosts []HostPort
	// SessionAttrs is the URL's target_session_attrs (dbgauge's own
	// check, taken out of Query): which hosts a session may go to.
	SessionAttrs string
	// hostSpan is where the host list is written in Raw.
	hostSpan [2]int
	// Path is the file of an embedded engine.
	Path  string
	Query url.Values
	// pass is where the password is written in Raw (start and end), as
	// Raw spells it: Redacted replaces that text, whatever its escaping.
	// userPass: the user information holds a password; passParam: the
	// query does (libpq's ?password=, password.go).
	pass                [2]int
	userPass, passParam bool
}

// ParseURL parses --db. Errors are BadInput and name the expected forms.
func ParseURL(raw string) (*URL, error) {
	i := strings.Index(raw, ":")
	if i <= 0 {
		return nil, badURL(raw, "missing scheme")
	}
	u := &URL{Raw: raw, Scheme: strings.ToLower(raw[:i]), Query: url.Values{}}
	rest := raw[i+1:]
	if !strings.HasPrefix(rest, "//") {
		// Embedded form: scheme:PATH[?k=v].
		if q := strings.Index(rest, "?"); q >= 0 {
			vals, err := url.ParseQuery(rest[q+1:])
			if err != nil {
				return nil, badURL(raw, err.Error())
			}
			u.Query, rest = vals, rest[:q]
		}
		if rest == "" {
			return nil, badURL(raw, "missing file path")
		}
		u.Path = rest
		return u, nil
	}
	parse := raw
	if i := strings.Index(rest, "unix("); i >= 0 && !strings.Contains(rest[2:i], "/") {
		// unix(PATH): the socket path holds slashes that url.Parse would
		// take for the database's path, so take it out first.
		j := strings.Index(rest[i:], ")")
		if j < 0 {
			return nil, badURL(raw, "unix( without its closing )")
		}
		u.Socket = rest[i+len("unix(") : i+j]
		if u.Socket == "" {
			return nil, badURL(raw, "unix() names no socket file")
		}
		// unix(PATH) is the whole host: after user:pass@ (or //) and
		// before /database, so that the user information is what
		// precedes it in raw as in what url.Parse reads.
		if after := rest[i+j+1:]; (i > 2 && rest[i-1] != '@') || (after != "" && after[0] != '/' && after[0] != '?') {
			return nil, badURL(raw, "unix(PATH) must be the whole host, as in mysql://user:pass@unix(/path/to/socket)/db")
		}
		parse = raw[:len(raw)-len(rest)] + rest[:i] + "localhost" + rest[i+j+1:]
	}
	var hosts []HostPort
	if u.Socket == "" {
		var err error
		if parse, hosts, u.hostSpan, err = splitHosts(parse, len(raw)-len(rest)+2); err != nil {
			return nil, badURL(raw, err.Error())
		}
	}
	p, err := url.Parse(parse)
	if err != nil {
		return nil, badURL(raw, err.Error())
	}
	if p.User != nil {
		u.User = p.User.Username()
		u.Password, u.userPass = p.User.Password()
		u.HasPass = u.userPass
		if u.HasPass {
			u.pass = passwordSpan(parse, len(raw)-len(rest)+2)
		}
	}
	u.Host, u.Port = p.Hostname(), p.Port()
	u.Database = strings.TrimPrefix(p.Path, "/")
	if strings.HasPrefix(p.Path, "//") { // firebird://h/ /abs/path.fdb
		u.Database = p.Path[1:]
	}
	u.Query = p.Query()
	if err := u.takeIOTimeout(); err != nil {
		return nil, err
	}
	if err := u.takeSessionAttrs(); err != nil {
		return nil, err
	}
	u.takePassword()
	switch {
	case hosts != nil:
		for _, h := range hosts {
			if _, err := url.Parse("x://" + h.String()); err != nil || strings.ContainsAny(h.Host, "/?#@") {
				return nil, badURL(raw, fmt.Sprintf("host %s in the host list is not host:port", h))
			}
		}
		u.Hosts = hosts
	case u.Host != "" && u.Socket == "":
		u.Hosts = []HostPort{{u.Host, u.Port}}
	}
	if u.Socket != "" {
		u.Host = ""
	} else if h := u.Query.Get("host"); u.Host == "" && strings.HasPrefix(h, "/") {
		u.Socket = h
	}
	if u.Host == "" && u.Socket == "" {
		return nil, badURL(raw, "missing host")
	}
	return u, nil
}

// takeIOTimeout moves io_timeout from Query to IOTimeout.
func (u *URL) takeIOTimeout() error {
	v, ok := u.Query["io_timeout"]
	if !ok {
		return nil
	}
	u.Query.Del("io_timeout")
	d, err := time.ParseDuration(v[len(v)-1])
	if err != nil || d <= 0 {
		return badURL(u.Raw, fmt.Sprintf("io_timeout=%s is not a positive duration (e.g. io_timeout=10s)", v[len(v)-1]))
	}
	u.IOTimeout = d
	return nil
}

// Local reports whether the server is on this machine: a Unix socket or a
// loopback host.
func (u *URL) Local() bool {
	if u.Socket != "" || u.Path != "" {
		return true
	}
	for _, h := range u.Hosts {
		if !loopback(h.Host) {
			return false
		}
	}
	return true
}

func loopback(host string) bool {
	switch host {
	case "localhost", "::1":
		return true
	}
	return strings.HasPrefix(host, "127.")
}

// Addr is host:port with a default port.
func (u *URL) Addr(defaultPort string) string {
	port := u.Port
	if port == "" {
		port = defaultPort
	}
	if strings.Contains(u.Host, ":") {
		return "[" + u.Host + "]:" + port
	}
	return u.Host + ":" + port
}

// Redacted is the URL with any password replaced, for manifests and messages.
func (u *URL) Redacted() string {
	s := u.Raw
	if u.passParam {
		s = withParam(s, "password", "***")
	}
	if !u.userPass {
		return s
	}
	if a, b := u.pass[0], u.pass[1]; 0 < a && a <= b && b <= len(s) {
		return s[:a] + "***" + s[b:]
	}
	user := url.UserPassword("", "")
	if pw, ok := u.userPassword(); ok {
		user = url.UserPassword("", pw)
	}
	return strings.Replace(s, ":"+user.String()[1:]+"@", ":***@", 1)
}

// passwordSpan is where the password of a server URL is written: the
// authority starts at offset from (after "scheme://") and ends at the
// first '/', '?' or '#'; its user information ends at its last '@'
// and the password follows the user name's ':' (url.Parse's reading).
func passwordSpan(s string, from int) [2]int {
	auth := s[from:]
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	at := strings.LastIndex(auth, "@")
	c := strings.Index(auth, ":")
	if at < 0 || c < 0 || c > at {
		return [2]int{}
	}
	return [2]int{from + c + 1, from + at}
}

// userinfo is the user:password@ of a URL in any text; passwordParam
// its ?password= or &password=.
var (
	userinfo      = regexp.MustCompile(`(://[^/@:\s"]*):[^@\s"/]*@`)
	passwordParam = regexp.MustCompile(`([?&]password=)[^&#\s"]*`)
)

// RedactPasswords hides the password of every URL in s, whether or not
// the URL parses: for messages that quote what the user gave.
func RedactPasswords(s string) string {
	return passwordParam.ReplaceAllString(userinfo.ReplaceAllString(s, "$1:***@"), "$1***")
}

// StripPasswords removes the password of every URL in s (user:pw@ becomes
// user@), leaving what can be shown and stored in clear.
func StripPasswords(s string) string { return userinfo.ReplaceAllString(s, "$1@") }

func badURL(raw, why string) error {
	return &Error{Class: BadInput, Err: fmt.Errorf("cannot parse --db %q: %s (forms: postgres://user@host:port/db, postgres:///db?host=/socket/dir, mysql://user:pass@host:port/db, mysql://user:pass@unix(/path/to/socket)/db, sqlite:PATH, duckdb:PATH, firebird://user:pass@host:port/PATH)", RedactPasswords(raw), RedactPasswords(why))}
}
