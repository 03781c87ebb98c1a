package experiment

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/dbgauge/dbgauge/internal/results"
)

// seqWrite writes size bytes in 1 MiB blocks and fdatasyncs once at the
// end: the time includes the sync, so the figure is what reached the
// device, not the page cache. The data is pseudo-random (from seed) so that
// a compressing file system cannot shrink it.
func seqWrite(ctx context.Context, name string, size int64, seed uint64) (*results.Throughput, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := randomBytes(seqBlock, seed)
	start := time.Now()
	for off := int64(0); off < size; off += seqBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := min(int64(seqBlock), size-off)
		binary.LittleEndian.PutUint64(buf, uint64(off)) // no two blocks alike
		if _, err := f.Write(buf[:n]); err != nil {
			return nil, err
		}
	}
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		return nil, fmt.Errorf("fdatasync: %w", err)
	}
	secs := time.Since(start).Seconds()
	return &results.Throughput{Bytes: size, BlockBytes: seqBlock, Seconds: secs, MBps: float64(size) / 1e6 / secs,
		Method: "write(2) in 1 MiB blocks, one fdatasync at the end (timed)"}, nil
}

// seqRead empties the page cache of the file, then reads it in 1 MiB
// blocks. The note says when the read was (partly) served from memory.
func seqRead(ctx context.Context, name string) (*results.Throughput, string, error) {
	method, cached, err := dropCache(name)
	if err != nil {
		return nil, "", err
	}
	note := ""
	if cached > 0.05 {
		note = fmt.Sprintf("sequential read: %.0f%% of the file was still in the page cache when the read started (%s): the read figure is (partly) memory speed", 100*cached, method)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	buf := make([]byte, seqBlock)
	var total int64
	start := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		n, err := f.Read(buf)
		total += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", err
		}
	}
	secs := time.Since(start).Seconds()
	return &results.Throughput{Bytes: total, BlockBytes: seqBlock, Seconds: secs, MBps: float64(total) / 1e6 / secs,
		Method: method, CachedBefore: &cached}, note, nil
}

// dropCache empties the page cache of the file: as root the whole cache
// (sync; echo 3 > drop_caches, as the seed papers did), and in every case
// the file's own clean pages by posix_fadvise(DONTNEED), which needs no
// privilege and works in containers where drop_caches is refused. It
// returns what was done and the fraction of the file still cached after
// it (mincore), so the report can say whether the read hit the disk.
func dropCache(name string) (method string, cached float64, err error) {
	method = "posix_fadvise(DONTNEED) on the file"
	if os.Geteuid() != 0 {
		method += "; not root, so drop_caches was not used"
	} else {
		syscall.Sync()
		if werr := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0); werr != nil {
			method += fmt.Sprintf("; drop_caches refused (%v)", errors.Unwrap(werr))
		} else {
			method = "sync; echo 3 > /proc/sys/vm/drop_caches; " + method
		}
	}
	f, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		method += fmt.Sprintf(" (refused: %v)", err)
	}
	cached, err = cachedFraction(f)
	return method, cached, err
}

// cachedFraction is the share of f's pages in the page cache: mapping a
// file does not read it, and mincore reports residency page by page.
func cachedFraction(f *os.File) (float64, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, fmt.Errorf("mmap for mincore: %w", err)
	}
	defer unix.Munmap(m)
	page := int64(os.Getpagesize())
	vec := make([]byte, (st.Size()+page-1)/page)
	// x/sys/unix has no Mincore wrapper on Linux: the raw call.
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, fmt.Errorf("mincore: %w", e)
	}
	in := 0
	for _, v := range vec {
		in += int(v & 1)
	}
	return float64(in) / float64(len(vec)), nil
}

// randomReads reads bs-byte blocks at random aligned offsets of the file
// for d, one at a time (queue depth 1, as one database session reads),
// with O_DIRECT so that every read reaches the device. Where the file
// system refuses O_DIRECT (tmpfs, some FUSE and network file systems) it
// falls back to buffered reads after emptying the file's cache, and the
// note says so.
func randomReads(ctx context.Context, name string, size, bs int64, d time.Duration, seed uint64) (*results.LatencyTest, string, error) {
	blocks := size / bs
	if blocks < 1 {
		return nil, "", fmt.Errorf("the test file (%d bytes) is smaller than one block", size)
	}
	buf, err := unix.Mmap(-1, 0, int(bs), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE) // page-aligned, as O_DIRECT needs
	if err != nil {
		return nil, "", err
	}
	defer unix.Munmap(buf)
	f, direct, err := openDirect(name, buf)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	note, method := "", "pread(2) at random aligned offsets, O_DIRECT, queue depth 1"
	if !direct {
		note = "O_DIRECT is not supported on this file system: random reads went through the page cache (emptied first), so a block read twice came from memory"
		method = "pread(2) at random aligned offsets, buffered (no O_DIRECT), queue depth 1"
		unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
		unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_RANDOM)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(bs)))
	lat := newLatencies()
	fd := int(f.Fd())
	err = lat.loop(ctx, d, func() error {
		off := rng.Int64N(blocks) * bs
		n, err := unix.Pread(fd, buf, off)
		if err == nil && int64(n) != bs {
			err = fmt.Errorf("short read of %d bytes at offset %d", n, off)
		}
		return err
	})
	if err != nil {
		return nil, "", err
	}
	t := lat.result(bs)
	t.Direct, t.Method = direct, method
	return t, note, nil
}

// openDirect opens name with O_DIRECT and tries one read, since some file
// systems accept the flag at open and refuse the read (EINVAL).
func openDirect(name string, buf []byte) (*os.File, bool, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_DIRECT, 0)
	if err == nil {
		if _, rerr := unix.Pread(int(f.Fd()), buf, 0); rerr == nil {
			return f, true, nil
		}
		f.Close()
	}
	f, err = os.Open(name)
	return f, false, err
}

// syncWrites writes bs-byte blocks, each followed by fdatasync, for d: the
// cost of a commit. The writes overwrite the already allocated test file
// in order, as a write-ahead log with preallocated segments does
// (PostgreSQL's WAL), so each sync flushes data, not file size metadata.
func syncWrites(ctx context.Context, name string, size, bs int64, d time.Duration) (*results.LatencyTest, error) {
	blocks := size / bs
	if blocks < 1 {
		return nil, fmt.Errorf("the test file (%d bytes) is smaller than one block", size)
	}
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := randomBytes(int(bs), uint64(bs))
	fd := int(f.Fd())
	var i int64
	lat := newLatencies()
	err = lat.loop(ctx, d, func() error {
		off := i % blocks * bs
		i++
		binary.LittleEndian.PutUint64(buf, uint64(i))
		if _, err := unix.Pwrite(fd, buf, off); err != nil {
			return err
		}
		return unix.Fdatasync(fd)
	})
	if err != nil {
		return nil, err
	}
	t := lat.result(bs)
	t.Method = "pwrite(2) then fdatasync, in order over the allocated file, queue depth 1"
	return t, nil
}

func randomBytes(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	b := make([]byte, n+8)
	for i := 0; i < n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
	return b[:n]
}
