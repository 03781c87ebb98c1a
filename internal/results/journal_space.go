package results

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// journalChunk is the disk space the journal holds ahead of its last
// entry: a few thousand entries of any experiment (a Wisconsin execution
// is about 200 bytes, a dsbench cycle a few hundred).
const journalChunk = 1 << 20

// grow keeps disk space held for the journal's next entries, allocated to
// its file beyond its end (fallocate with KEEP_SIZE: the file's size, and
// so what a reader sees, unchanged). A disk that something else fills
// (the database, the live stream, the load samples, another program)
// then still takes the journal's entries: what the run measured is kept
// whole before anything else is written. grow takes journalChunk, or half
// of the space left when less than twice that is free (the manifest and
// results.json need some too), and tries again once half of what it got
// is used; need is the entry about to be written. A file system that
// cannot preallocate (or a device: /dev/full) gets none, and the journal
// writes as any file does. j.mu is held.
func (j *Journal) grow(need int64) {
	if !j.regular || j.noAlloc || j.size+need < j.retryAt {
		return
	}
	n := int64(journalChunk)
	var st unix.Statfs_t
	if unix.Fstatfs(int(j.f.Fd()), &st) == nil {
		n = min(n, int64(st.Bavail)*st.Bsize/2)
	}
	n -= n % 4096
	got := int64(0)
	if n > 0 {
		err := unix.Fallocate(int(j.f.Fd()), unix.FALLOC_FL_KEEP_SIZE, j.size, n)
		switch {
		case err == nil:
			got = n
		case !diskFull(err):
			j.noAlloc = true // EOPNOTSUPP: not on this file system
			return
		}
	}
	j.alloc = max(j.alloc, j.size+got)
	j.retryAt = j.size + max(got/2, 4096)
}

// giveBack returns the space held beyond the journal's end to the file
// system (a truncation to the file's own size frees the blocks beyond
// it: ext4, XFS and tmpfs do so). j.mu is held.
func (j *Journal) giveBack() {
	if j.alloc > j.size {
		j.f.Truncate(j.size)
		j.alloc = j.size
	}
}

// wholeLines cuts a torn last line off the file f of size bytes (a crash
// or kill -9 in the middle of a write; a disk that filled under an older
// dbgauge), so that the entries appended when a run is resumed start on
// a line of their own instead of spoiling the torn one further. It
// returns the size the file now has.
func wholeLines(f *os.File, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		b := buf[:end-start]
		if _, err := f.ReadAt(b, start); err != nil && err != io.EOF {
			return size, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			end = start + int64(i) + 1
			if end == size {
				return size, nil
			}
			return end, f.Truncate(end)
		}
		end = start
	}
	if size == 0 {
		return 0, nil
	}
	return 0, f.Truncate(0)
}
