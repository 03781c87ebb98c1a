package results

// StorageResults is results.json of a storage run (dbgauge storage): what
// the directory that holds a database can do, sequentially and in the small
// random and synchronous operations a database really issues (seed 001
// §3.2.1 found that dd's sequential figures do not predict the latter).
type StorageResults struct {
	Header
	Dir        string      `json:"dir"` // the directory measured
	FileSystem string      `json:"file_system"`
	Mount      string      `json:"mount"`
	SizeBytes  int64       `json:"size_bytes"` // test file size
	DurationS  float64     `json:"duration_s"` // per random and synchronous test
	Seed       uint64      `json:"seed"`       // of the random offsets
	SeqWrite   *Throughput `json:"sequential_write,omitempty"`
	SeqRead    *Throughput `json:"sequential_read,omitempty"`
	// RandomReads holds one entry per block size (4 KiB, 8 KiB).
	RandomReads []LatencyTest `json:"random_reads,omitempty"`
	// SyncWrites are small writes each followed by fdatasync: what a commit
	// costs.
	SyncWrites []LatencyTest `json:"sync_writes,omitempty"`
	Notes      []string      `json:"notes,omitempty"`
}

// Throughput is a sequential test: Bytes in BlockBytes blocks in Seconds.
type Throughput struct {
	Bytes      int64   `json:"bytes"`
	BlockBytes int64   `json:"block_bytes"`
	Seconds    float64 `json:"seconds"`
	MBps       float64 `json:"mb_per_s"` // 10^6 bytes per second, as dd reports
	// Method says how the write was made durable or how the page cache was
	// emptied before the read; CachedBefore is the fraction of the file's
	// pages that were still in the page cache when the read started.
	Method       string   `json:"method"`
	CachedBefore *float64 `json:"cached_before,omitempty"`
}

// LatencyTest is a timed loop of one operation on BlockBytes blocks.
type LatencyTest struct {
	BlockBytes int64   `json:"block_bytes"`
	Ops        int64   `json:"ops"`
	Seconds    float64 `json:"seconds"`
	PerSecond  float64 `json:"per_s"` // IOPS or writes per second
	MeanUS     float64 `json:"mean_us"`
	P50US      float64 `json:"p50_us"`
	P99US      float64 `json:"p99_us"`
	MaxUS      float64 `json:"max_us"`
	// Direct is true when reads bypassed the page cache (O_DIRECT).
	Direct bool   `json:"direct"`
	Method string `json:"method"`
}
