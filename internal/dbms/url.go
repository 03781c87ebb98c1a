package dbms

import (
	"fmt"
	"net/url"
	"strings"
)

// URL is a parsed engine URL. Two forms exist:
//
//	scheme://user:pass@host:port/database   (servers)
//	scheme:PATH                             (embedded files; duckdb::memory:)
type URL struct {
	Raw      string
	Scheme   string
	User     string
	Password string
	HasPass  bool
	Host     string // without port
	Port     string
	// Database is the database name for servers (without the leading slash;
	// for Firebird it is the database file path, absolute when it begins with /).
	Database string
	// Path is the file of an embedded engine.
	Path  string
	Query url.Values
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
	p, err := url.Parse(raw)
	if err != nil {
		return nil, badURL(raw, err.Error())
	}
	if p.User != nil {
		u.User = p.User.Username()
		u.Password, u.HasPass = p.User.Password()
	}
	u.Host, u.Port = p.Hostname(), p.Port()
	u.Database = strings.TrimPrefix(p.Path, "/")
	if strings.HasPrefix(p.Path, "//") { // firebird://h/ /abs/path.fdb
		u.Database = p.Path[1:]
	}
	u.Query = p.Query()
	if u.Host == "" {
		return nil, badURL(raw, "missing host")
	}
	return u, nil
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
	if !u.HasPass {
		return u.Raw
	}
	return strings.Replace(u.Raw, ":"+url.UserPassword("", u.Password).String()[1:]+"@", ":***@", 1)
}

func badURL(raw, why string) error {
	return &Error{Class: BadInput, Err: fmt.Errorf("cannot parse --db %q: %s (forms: postgres://user@host:port/db, mysql://user:pass@host:port/db, sqlite:PATH, duckdb:PATH, firebird://user:pass@host:port/PATH)", raw, why)}
}
