package firebird

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The external-table path: rows are written as fixed-width text records to
// files the server reads as tables (CREATE TABLE ... EXTERNAL FILE), then
// copied with INSERT ... SELECT, which runs inside the engine with no
// per-row round trip or message decoding: three to four times the speed of
// the best path over the wire.
//
// It needs the server on this machine, reading the files this process
// writes, in a directory its ExternalFileAccess setting allows. The
// directory is the URL's ext_dir option, else "ext" beside the database file
// (the layout of dbgauge's private server). A probe proves the server reads
// what we write before any row is consumed; otherwise Load uses blocks.

// chunkBytes bounds the disk an external load holds: each chunk is loaded
// and removed while the next one is written.
const chunkBytes = 64 << 20

// externalDir returns the directory for external-table loads, or "" when
// this server cannot use one. The answer is found once per Engine.
func (e *Engine) externalDir(ctx context.Context) string {
	e.extOnce.Do(func() {
		dir := e.extDirOption
		if dir == "" && filepath.IsAbs(e.path) {
			dir = filepath.Join(filepath.Dir(e.path), "ext")
		}
		if dir == "" || !e.isLocal() {
			return
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return
		}
		if e.probeExternal(ctx, dir) == nil {
			e.extDir = dir
		}
	})
	return e.extDir
}

// probeExternal writes a random token to a file in dir and asks the server
// to read it back through an external table.
func (e *Engine) probeExternal(ctx context.Context, dir string) error {
	token := make([]byte, 8)
	rand.Read(token)
	want := hex.EncodeToString(token)
	path := filepath.Join(dir, "dbgauge-probe-"+want+".dat")
	if err := os.WriteFile(path, []byte(want+"\n"), 0o644); err != nil {
		return err
	}
	defer os.Remove(path)
	os.Chmod(path, 0o644) // readable by the server's OS user whatever our umask
	name := "DBGAUGE_PROBE_" + strings.ToUpper(want[:8])
	if _, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s EXTERNAL FILE %s (v CHAR(16) CHARACTER SET NONE, nl CHAR(1) CHARACTER SET NONE)", name, dbms.Quote(path))); err != nil {
		return err
	}
	defer e.Exec(ctx, "DROP TABLE "+name)
	got, err := e.QueryValue(ctx, "SELECT v FROM "+name)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("external table read %q, wrote %q", got, want)
	}
	return nil
}

// extChunk is one written file of rows.
type extChunk struct {
	path string
	rows int64
}

// loadExternal writes chunks in one goroutine (the only reader of rows)
// while this one loads the previous chunk, so formatting and inserting
// overlap. Each chunk is committed on its own.
func (e *Engine) loadExternal(ctx context.Context, t dbms.Table, rows dbms.RowSource, dir string) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan extChunk, 1)
	var werr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(chunks)
		werr = writeChunks(ctx, t, rows, dir, chunks)
	}()

	var n int64
	var lerr error
	for c := range chunks {
		if lerr == nil {
			lerr = e.loadChunk(ctx, t, c)
			if lerr != nil {
				cancel()
			} else {
				n += c.rows
			}
		}
		os.Remove(c.path)
	}
	wg.Wait() // rows is not touched after Load returns
	if lerr != nil {
		return n, fmt.Errorf("load %s: %w", t.Name, lerr)
	}
	if werr != nil {
		return n, fmt.Errorf("load %s: %w", t.Name, werr)
	}
	return n, nil
}

// loadChunk maps one file as an external table and copies it into t.
func (e *Engine) loadChunk(ctx context.Context, t dbms.Table, c extChunk) error {
	name := "DBGAUGE_EXT_" + strings.ToUpper(strings.TrimSuffix(filepath.Base(c.path), ".dat"))
	cols := make([]string, 0, len(t.Columns)+1)
	sel := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		var fields []string
		fields, sel[i] = extFields(col, i)
		cols = append(cols, fields...)
	}
	cols = append(cols, "nl CHAR(1) CHARACTER SET NONE")
	if _, err := e.Exec(ctx, fmt.Sprintf("CREATE TABLE %s EXTERNAL FILE %s (%s)", name, dbms.Quote(c.path), strings.Join(cols, ", "))); err != nil {
		return fmt.Errorf("map %s: %w", c.path, err)
	}
	defer e.Exec(context.WithoutCancel(ctx), "DROP TABLE "+name)
	got, err := e.Exec(ctx, fmt.Sprintf("INSERT INTO %s SELECT %s FROM %s", t.Name, strings.Join(sel, ", "), name))
	if err != nil {
		return err
	}
	if got >= 0 && got != c.rows {
		return fmt.Errorf("%s: inserted %d rows of %d", c.path, got, c.rows)
	}
	return nil
}

// writeChunks formats rows into files of about chunkBytes and hands each
// finished file to out. Records are fixed width, ending in a newline.
func writeChunks(ctx context.Context, t dbms.Table, rows dbms.RowSource, dir string, out chan<- extChunk) error {
	tag := make([]byte, 4)
	rand.Read(tag)
	recLen := recordLen(t.Columns)
	perChunk := max(1, chunkBytes/recLen)
	row := make([]any, len(t.Columns))
	rec := make([]byte, 0, recLen)
	for seq := 0; ; seq++ {
		path := filepath.Join(dir, fmt.Sprintf("%s_%d.dat", hex.EncodeToString(tag), seq))
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		os.Chmod(path, 0o644)
		w := bufio.NewWriterSize(f, 1<<20)
		var n int64
		more := true
		for n < int64(perChunk) {
			if more = rows.Next(row); !more {
				break
			}
			if rec, err = appendRecord(rec[:0], t.Columns, row); err != nil {
				f.Close()
				os.Remove(path)
				return fmt.Errorf("row %d: %w", int64(seq)*int64(perChunk)+n+1, err)
			}
			w.Write(rec)
			n++
		}
		err = w.Flush()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || n == 0 {
			os.Remove(path)
			return err
		}
		select {
		case out <- extChunk{path: path, rows: n}:
		case <-ctx.Done():
			os.Remove(path)
			return ctx.Err()
		}
		if !more {
			return nil
		}
	}
}
