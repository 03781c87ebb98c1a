package experiment

// write stores results.json, the tables and the diagrams (writeOutputs).
func (r *qacRun) write() error {
	return writeOutputs(r.run, r.res)
}
