package results

// LoadResults is a run of `dbgauge load`: the Wisconsin relations of each
// size loaded through the engine's bulk path, each load timed.
type LoadResults struct {
	Header
	Sizes     []int64      `json:"sizes"`
	Relations []string     `json:"relations"`
	Loads     []LoadResult `json:"loads"`
}
