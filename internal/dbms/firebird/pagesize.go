package firebird

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.PageSizer = (*Engine)(nil)

// PageSizeKnob says how a page size is chosen.
func (e *Engine) PageSizeKnob() string {
	return "a new database per page size, CREATE DATABASE ... PAGE_SIZE through isql-fb"
}

// CreatePageSizeDB creates a database with page size ps through isql-fb
// (the Go driver creates databases with 4 KiB pages only) on the server u
// names, beside its database file; drop drops it through isql-fb again.
func (e *Engine) CreatePageSizeDB(ctx context.Context, u *dbms.URL, ps int64) (dbms.Engine, func() error, error) {
	if !strings.HasPrefix(u.Database, "/") {
		return nil, nil, fmt.Errorf("page sizes on Firebird need --db with an absolute database path (firebird://user:pass@host:port//abs/path.fdb), not the alias %q", u.Database)
	}
	isql, err := exec.LookPath("isql-fb")
	if err != nil {
		if isql, err = exec.LookPath("isql"); err != nil {
			return nil, nil, fmt.Errorf("creating a Firebird database with a page size needs isql-fb: %w", err)
		}
	}
	path := dbms.PageDBPath(u.Database, ps)
	// The session's own user and password: u may give none, which the
	// session found elsewhere (password.go).
	user, password := e.user, e.password
	target := fmt.Sprintf("%s/%s:%s", u.Host, u.Port, path)
	if u.Port == "" {
		target = u.Host + ":" + path
	}
	cred := fmt.Sprintf("USER '%s' PASSWORD '%s'", strings.ReplaceAll(user, "'", "''"), strings.ReplaceAll(password, "'", "''"))
	drop := func() error {
		return runISQL(ctx, isql, fmt.Sprintf("CONNECT '%s' %s;\nDROP DATABASE;\n", target, cred))
	}
	drop() // a database left behind by an earlier run; none is the usual case
	if err := runISQL(ctx, isql, fmt.Sprintf("CREATE DATABASE '%s' %s PAGE_SIZE %d;\n", target, cred, ps)); err != nil {
		return nil, nil, err
	}
	nu := url.URL{Scheme: "firebird", User: url.UserPassword(user, password), Host: u.Addr("3050"), Path: "/" + path, RawQuery: u.Query.Encode()}
	ne, err := dbms.Open(ctx, nu.String())
	if err != nil {
		drop()
		return nil, nil, err
	}
	return ne, drop, nil
}

func runISQL(ctx context.Context, isql, sqlText string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, isql, "-quiet", "-bail")
	cmd.Stdin = strings.NewReader(sqlText)
	out, err := cmd.CombinedOutput()
	if err == nil && strings.Contains(string(out), "Statement failed") {
		err = fmt.Errorf("statement failed")
	}
	if err != nil {
		return fmt.Errorf("%s: %w: %s", isql, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// PageSize is MON$PAGE_SIZE of the session's database.
func (e *Engine) PageSize(ctx context.Context) (int64, error) {
	v, err := dbms.FirstValue(ctx, e, "SELECT MON$PAGE_SIZE FROM MON$DATABASE")
	if err != nil {
		return 0, fmt.Errorf("read the page size: %w", err)
	}
	return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
}
