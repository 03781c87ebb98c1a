package results

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Archive packs the run directory dir into <dir>.tar.gz beside it (seed 001
// §2.3: "the entire file output ... is compressed into an archive for later
// reference"). Names inside are relative, under the directory's own name,
// so unpacking recreates it; entries are in lexical order and carry no
// owner names, so the same directory always packs to the same entries. The
// archive is written to a temporary file and renamed: a reader never sees
// half an archive. It returns the archive's path.
func Archive(dir string) (path string, err error) {
	dir = filepath.Clean(dir)
	st, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("archive: %s is not a directory", dir)
	}
	path = dir + ".tar.gz"
	tmp, err := os.CreateTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tar.gz.*")
	if err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zw := gzip.NewWriter(tmp) // no name, zero time in the gzip header
	tw := tar.NewWriter(zw)
	base := filepath.Base(dir)
	// WalkDir visits in lexical order: deterministic.
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, werr error) error {
		if werr != nil {
			return werr
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(filepath.Join(base, rel))
		if !d.IsDir() && isDatabaseFile(d.Name()) {
			return nil // the measurements, not the database measured
		}
		return addEntry(tw, p, name, d)
	})
	if err != nil {
		return "", fmt.Errorf("archive %s: %w", dir, err)
	}
	if err = tw.Close(); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	if err = zw.Close(); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	return path, nil
}

// addEntry writes one directory, regular file or symbolic link; other
// kinds (sockets, pipes) have no place in a run directory and are skipped.
func addEntry(tw *tar.Writer, p, name string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	link := ""
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		if link, err = os.Readlink(p); err != nil {
			return err
		}
	case !info.IsDir() && !info.Mode().IsRegular():
		return nil
	}
	h, err := tar.FileInfoHeader(info, link)
	if err != nil {
		return err
	}
	h.Name = name
	if info.IsDir() && !strings.HasSuffix(h.Name, "/") {
		h.Name += "/"
	}
	// Owner ids and names say who ran it, not what was measured.
	h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
	h.ModTime = info.ModTime().UTC().Truncate(time.Second)
	h.AccessTime, h.ChangeTime = time.Time{}, time.Time{}
	h.Format = tar.FormatPAX
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(tw, f)
	if err == nil && n != h.Size {
		err = fmt.Errorf("%s changed size while being archived", p)
	}
	return err
}

// isDatabaseFile tells the embedded engines' files (kept in the run
// directory by default) that an archive leaves out: they can be gigabytes
// and are not results. The engines register their files' suffixes.
func isDatabaseFile(name string) bool {
	for _, suffix := range dbms.DatabaseFileSuffixes() {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
