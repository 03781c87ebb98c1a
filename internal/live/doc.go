// Package live is what a run shows while it runs, and what the web
// interface asks of it: the run appends one JSON event per line to
// live.jsonl in its run directory (about one a second, plus one at every
// change of phase, cycle and scale), and reads the requests a viewer
// appends to control.jsonl (a mark to journal, stop, abort).
//
// The stream is not a result: results.json and the journal are. It is kept
// so that a finished run can be replayed through the live page, and so
// that a run started from the command line can be watched as well as one
// started from the page. Both files are plain appends, so a reader in
// another process follows them by offset; nothing else is shared.
package live
