package experiment

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// pageSizes runs the selections and joins on a new database per page size:
// a page size is chosen when a database is created (SQLite: PRAGMA
// page_size before the first table; Firebird: CREATE DATABASE ... PAGE_SIZE).
// The databases sit beside the one --db names and are removed afterwards.
func (r *speedupRun) pageSizes(ctx context.Context) error {
	u, err := dbms.ParseURL(r.url)
	if err != nil {
		return err
	}
	part := r.res.PageSize
	part.Knob = map[string]string{
		"sqlite":   "a new database file per page size, PRAGMA page_size before the first table",
		"firebird": "a new database per page size, CREATE DATABASE ... PAGE_SIZE through isql-fb",
	}[r.e.Name()]
	for _, ps := range r.plan.PageSizes {
		e, drop, err := r.pageDB(ctx, u, ps)
		if err != nil {
			return fmt.Errorf("page size %d: %w", ps, err)
		}
		err = r.pageSizeRun(ctx, e, ps)
		e.Close()
		if derr := drop(); derr != nil {
			r.warn(fmt.Sprintf("page size %d: removing its database: %v", ps, derr))
		}
		if err != nil {
			return fmt.Errorf("page size %d: %w", ps, err)
		}
	}
	return nil
}

// pageSizeRun loads and measures one page size's database; curve i of the
// part gets the point of the i-th query (the queries come in the same
// order, with the same constants, at every page size).
func (r *speedupRun) pageSizeRun(ctx context.Context, e dbms.Engine, ps int64) error {
	actual, err := pageBytes(ctx, e)
	if err != nil {
		return err
	}
	if actual != ps {
		return fmt.Errorf("the new database has pages of %d bytes, not %d (the engine refused the page size)", actual, ps)
	}
	r.pr.Line("page size %d bytes: database created", ps)
	d, err := r.loadAll(ctx, e)
	if err != nil {
		return err
	}
	if actual, err = pageBytes(ctx, e); err != nil {
		return err
	}
	i := 0
	part := r.res.PageSize
	for _, org := range speedupOrgs {
		if err := r.organize(ctx, e, org); err != nil {
			return err
		}
		qs, err := speedupQueries(d, org, r.plan.Seed)
		if err != nil {
			return err
		}
		for _, q := range qs {
			if i == len(part.Curves) {
				part.Curves = append(part.Curves, newCurve(q))
			}
			pt, err := r.point(ctx, e, q, ps, nil)
			pt.PageBytes = actual
			part.Curves[i].Points = append(part.Curves[i].Points, pt)
			i++
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// pageBytes is the page size of the database e is attached to.
func pageBytes(ctx context.Context, e dbms.Engine) (int64, error) {
	q := "PRAGMA page_size"
	if e.Name() == "firebird" {
		q = "SELECT MON$PAGE_SIZE FROM MON$DATABASE"
	}
	v, err := dbms.FirstValue(ctx, e, q)
	if err != nil {
		return 0, fmt.Errorf("read the page size: %w", err)
	}
	return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
}

// pageDBPath is the database of page size ps beside path: stem-pageN.ext.
func pageDBPath(path string, ps int64) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-page%d%s", strings.TrimSuffix(path, ext), ps, ext)
}

// pageDB creates the database of page size ps and opens it; drop removes it.
func (r *speedupRun) pageDB(ctx context.Context, u *dbms.URL, ps int64) (dbms.Engine, func() error, error) {
	switch r.e.Name() {
	case "sqlite":
		path := pageDBPath(u.Path, ps)
		drop := func() error {
			var last error
			for _, sfx := range []string{"", "-wal", "-shm", "-journal"} {
				if err := os.Remove(path + sfx); err != nil && !os.IsNotExist(err) {
					last = err
				}
			}
			return last
		}
		if err := drop(); err != nil {
			return nil, nil, err
		}
		raw := "sqlite:" + path
		if len(u.Query) > 0 {
			raw += "?" + u.Query.Encode()
		}
		e, err := dbms.Open(ctx, raw)
		if err != nil {
			return nil, nil, err
		}
		// Before the first table: the empty file takes the page size then.
		if _, err := e.Exec(ctx, fmt.Sprintf("PRAGMA page_size = %d", ps)); err != nil {
			e.Close()
			drop()
			return nil, nil, err
		}
		return e, drop, nil
	case "firebird":
		return r.firebirdPageDB(ctx, u, ps)
	}
	return nil, nil, fmt.Errorf("%s: %s", r.e.Name(), pageSizeNotApplicable(r.e.Name()))
}

// firebirdPageDB creates a Firebird database with page size ps through
// isql-fb (the Go driver creates databases with 4 KiB pages only) on the
// server --db names, beside its database file.
func (r *speedupRun) firebirdPageDB(ctx context.Context, u *dbms.URL, ps int64) (dbms.Engine, func() error, error) {
	if !strings.HasPrefix(u.Database, "/") {
		return nil, nil, fmt.Errorf("page sizes on Firebird need --db with an absolute database path (firebird://user:pass@host:port//abs/path.fdb), not the alias %q", u.Database)
	}
	isql, err := exec.LookPath("isql-fb")
	if err != nil {
		if isql, err = exec.LookPath("isql"); err != nil {
			return nil, nil, fmt.Errorf("creating a Firebird database with a page size needs isql-fb: %w", err)
		}
	}
	path := pageDBPath(u.Database, ps)
	user := u.User
	if user == "" {
		user = "SYSDBA"
	}
	target := fmt.Sprintf("%s/%s:%s", u.Host, u.Port, path)
	if u.Port == "" {
		target = u.Host + ":" + path
	}
	cred := fmt.Sprintf("USER '%s' PASSWORD '%s'", strings.ReplaceAll(user, "'", "''"), strings.ReplaceAll(u.Password, "'", "''"))
	drop := func() error {
		return runISQL(ctx, isql, fmt.Sprintf("CONNECT '%s' %s;\nDROP DATABASE;\n", target, cred))
	}
	drop() // a database left behind by an earlier run; none is the usual case
	if err := runISQL(ctx, isql, fmt.Sprintf("CREATE DATABASE '%s' %s PAGE_SIZE %d;\n", target, cred, ps)); err != nil {
		return nil, nil, err
	}
	nu := url.URL{Scheme: "firebird", User: url.UserPassword(user, u.Password), Host: u.Addr("3050"), Path: "/" + path, RawQuery: u.Query.Encode()}
	e, err := dbms.Open(ctx, nu.String())
	if err != nil {
		drop()
		return nil, nil, err
	}
	return e, drop, nil
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
