package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dbgauge/dbgauge/internal/report/htmlreport"
	"github.com/dbgauge/dbgauge/internal/results"
)

// finishRun completes a run directory after its experiment returned,
// whether it succeeded or not: the Go benchmark format export
// (bench.txt), report.html, the catalog row, then (for the stress sweep)
// the archive, last, so that it holds the rest. These only read what the
// run wrote; a failure here is a warning line and never touches a
// measurement. The report's and the archive's paths go to stdout once they
// are written.
//
// catalogRoot is the directory of runs whose catalog lists this run; ""
// means the run directory's parent (runs/ for runs/<time>-<experiment>).
func finishRun(stdout, stderr io.Writer, dir, catalogRoot string, archive bool) {
	if _, err := os.Stat(filepath.Join(dir, results.ResultsFile)); err == nil {
		if err := results.WriteBench(dir); err != nil {
			fmt.Fprintf(stderr, "warning: %s not written: %v\n", results.BenchFile, err)
		}
	}
	page := filepath.Join(dir, "report.html")
	if err := writeReport(dir, page); err != nil {
		fmt.Fprintf(stderr, "warning: report.html not written: %v\n", err)
	} else {
		fmt.Fprintf(stdout, "report: %s\n", page)
	}
	if err := register(dir, catalogRoot); err != nil {
		fmt.Fprintf(stderr, "warning: the catalog of runs was not updated (dbgauge list rebuilds it): %v\n", err)
	}
	if archive {
		if path, err := results.Archive(dir); err != nil {
			fmt.Fprintf(stderr, "warning: archive not written: %v\n", err)
		} else {
			// Named once written, never before: a full disk writes none.
			fmt.Fprintf(stdout, "archive: %s\n", path)
		}
	}
}

// register records dir in the catalog of root ("" for dir's parent) when
// root is the default directory of runs (runs/) or already has a catalog:
// a run written with --out /tmp/x does not leave a catalog in /tmp. Since
// `dbgauge list` finds every run directory anyway, a run not registered
// only costs that listing one read of its files.
func register(dir, root string) error {
	if root == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		root = filepath.Dir(abs)
	}
	if !catalogWanted(root) {
		return nil
	}
	return results.RegisterIn(root, dir)
}

// catalogWanted tells whether runs under root are cataloged as they end.
func catalogWanted(root string) bool {
	if _, err := os.Stat(filepath.Join(root, results.CatalogFile)); err == nil {
		return true
	}
	def, err1 := filepath.Abs(defaultRunsDir)
	abs, err2 := filepath.Abs(root)
	return err1 == nil && err2 == nil && abs == def
}

// writeReport renders the run directory dir as one HTML page at path.
func writeReport(dir, path string) error {
	b, err := htmlreport.Build(dir)
	if err != nil {
		return err
	}
	return writePage(path, b)
}

// writePage writes a page at path, making its directory if need be,
// atomically: a full disk leaves the old page or none, never half of one.
// A path that names something other than a regular file (--html
// /dev/stdout, a named pipe) is written to as it is: renaming a finished
// file over it would replace the device or pipe itself.
func writePage(path string, b []byte) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(b)
		return errors.Join(err, f.Close())
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return (&results.Run{Dir: filepath.Dir(path)}).WriteFile(filepath.Base(path), b)
}

// writeQuickstartReport writes the engines page of a quickstart directory
// (to html, default DIR/report.html) and returns its path.
func writeQuickstartReport(dir, html string) (string, error) {
	if html == "" {
		html = filepath.Join(dir, "report.html")
	}
	d, err := htmlreport.Quickstart(dir, filepath.Dir(html))
	if err != nil {
		return "", err
	}
	b, err := htmlreport.Render(d)
	if err != nil {
		return "", err
	}
	return html, writePage(html, b)
}
