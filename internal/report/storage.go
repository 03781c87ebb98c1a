package report

import (
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The storage run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("storage", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.StorageResults)
		return map[string][]byte{"storage.txt": StorageText(res), "storage.csv": StorageCSV(res)}, nil
	})
}

// StorageTable is the table of a storage run: one row per test, the rate
// (MB/s for sequential tests, operations per second for the others) and,
// for the small operations, latency percentiles in microseconds.
func StorageTable(r *results.StorageResults) *Table {
	t := &Table{
		Title: []string{fmt.Sprintf("Storage of %s (%s at %s), test file %s, %s per random test",
			r.Dir, r.FileSystem, r.Mount, storageBytes(r.SizeBytes), strconv.FormatFloat(r.DurationS, 'g', -1, 64)+" s")},
		Rows: [][]string{{"test", "block", "rate", "unit", "ops", "mean us", "p50 us", "p99 us", "max us"}},
	}
	if w := r.SeqWrite; w != nil {
		t.Rows = append(t.Rows, []string{"sequential write + fdatasync", storageBytes(w.BlockBytes), storageRate(w.MBps), "MB/s", "-", "-", "-", "-", "-"})
	}
	if rd := r.SeqRead; rd != nil {
		t.Rows = append(t.Rows, []string{"sequential read, cache dropped", storageBytes(rd.BlockBytes), storageRate(rd.MBps), "MB/s", "-", "-", "-", "-", "-"})
	}
	for _, x := range r.RandomReads {
		name := "random read, O_DIRECT"
		if !x.Direct {
			name = "random read, buffered"
		}
		t.Rows = append(t.Rows, latencyRow(name, "IOPS", x))
	}
	for _, x := range r.SyncWrites {
		t.Rows = append(t.Rows, latencyRow("sync write (commit)", "writes/s", x))
	}
	t.Notes = append(t.Notes, "MB/s = 10^6 bytes per second; random reads and sync writes at queue depth 1; sync write = pwrite + fdatasync")
	t.Notes = append(t.Notes, r.Notes...)
	if !r.Complete && r.Error != "" {
		t.Notes = append(t.Notes, "INCOMPLETE: "+r.Error)
	}
	return t
}

func latencyRow(name, unit string, x results.LatencyTest) []string {
	return []string{name, storageBytes(x.BlockBytes), storageRate(x.PerSecond), unit, strconv.FormatInt(x.Ops, 10),
		storageMicros(x.MeanUS), storageMicros(x.P50US), storageMicros(x.P99US), storageMicros(x.MaxUS)}
}

// StorageText is storage.txt.
func StorageText(r *results.StorageResults) []byte {
	return StorageTable(r).TextBytes()
}

// StorageCSV is storage.csv: the same rows, header first, no notes.
func StorageCSV(r *results.StorageResults) []byte {
	return StorageTable(r).CSVBytes()
}

func storageRate(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func storageMicros(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// bytesText names a size in binary units when it is a whole number of them.
func storageBytes(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
