package results

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// scanDepth is how deep below the directory of runs run directories are
// looked for: runs/X is one level, quickstart's runs/X/sqlite/run three.
const scanDepth = 3

// scanRuns returns the run directories under root (relative,
// slash-separated, sorted): every directory down to scanDepth levels that
// holds results.json or manifest.json. It does not look inside a run
// directory, nor into hidden directories.
func scanRuns(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable subdirectory holds no run we can list
		}
		if !d.IsDir() || p == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if IsRunDir(p) {
			out = append(out, filepath.ToSlash(rel))
			return filepath.SkipDir
		}
		if strings.Count(rel, string(filepath.Separator))+1 >= scanDepth {
			return filepath.SkipDir
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// runStamp fingerprints the files a catalog row is read from: for each
// of results.json and manifest.json whether it is there, its size and its
// modification time. A run whose files changed in any way since it was
// registered (rewritten, deleted, put back with an old time) is read
// again; the newest time alone would miss a results.json deleted from a
// run whose manifest was written after it.
func runStamp(dir string) int64 {
	h := fnv.New64a()
	for _, name := range []string{ResultsFile, ManifestFile} {
		var b [17]byte
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
			b[0] = 1
			binary.LittleEndian.PutUint64(b[1:9], uint64(st.Size()))
			binary.LittleEndian.PutUint64(b[9:17], uint64(st.ModTime().UnixNano()))
		}
		h.Write(b[:])
	}
	return int64(h.Sum64())
}

// newestTime is the newest modification time of results.json and
// manifest.json; zero when neither is there.
func newestTime(dir string) time.Time {
	var newest time.Time
	for _, name := range []string{ResultsFile, ManifestFile} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.ModTime().After(newest) {
			newest = st.ModTime()
		}
	}
	return newest
}

// readEntry reads the catalog row of the run directory root/rel. A run
// directory that cannot be read still gets a row, saying why, so that a
// listing shows it rather than hiding it.
func readEntry(root, rel string) CatalogEntry {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	e := CatalogEntry{Path: rel, stamp: runStamp(dir)}
	s, err := ReadRun(dir)
	if err != nil {
		e.Error = "unreadable: " + err.Error()
		e.Started = newestTime(dir).UTC()
		return e
	}
	e.Experiment = s.Experiment
	e.Engine, e.EngineVersion = s.engineOf()
	e.HasResults, e.Complete, e.Error = s.Results != nil, s.Complete, s.Error
	if m := s.Manifest; m != nil {
		e.Started, e.Finished, e.Dbgauge, e.Command, e.Tags = m.Started.UTC(), m.Finished, m.Dbgauge, m.Command, NormalizeTags(m.Tags)
		if e.Finished != nil {
			t := e.Finished.UTC()
			e.Finished = &t
		}
	}
	if t := newestTime(dir); e.Started.IsZero() && !t.IsZero() {
		e.Started = t.UTC()
	}
	e.Headline = HeadlineOf(s)
	return e
}
