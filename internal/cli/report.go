package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() { registerCommand("report", newReport) }

// newReport regenerates the derived files and the page of run
// directories from their stored results alone, and prints the tables of
// Wisconsin runs side by side.
func newReport(stdout, stderr io.Writer) *cobra.Command {
	var html string
	cmd := &cobra.Command{
		Use:   "report DIR [DIR...] [--html FILE]",
		Short: "Regenerate a run directory's tables, diagrams, bench.txt and report.html from its stored results (and print Wisconsin tables side by side)",
		Long: `Regenerate every derived file of each run directory (its tables as text
and CSV, its diagrams as SVG and PNG, bench.txt and report.html) from
manifest.json, results.json and the stored measurements alone: a run taken
months ago, or copied to another machine, gets the same files, byte for
byte, as the run wrote (with this version of dbgauge's renderers: the
same bytes when it is the version that ran). A quickstart directory gets its engines page and
each engine's own files. --html writes only the page of a single DIR, and
elsewhere. The tables of Wisconsin runs are printed side by side, one
engine per row.`,
		Args: minArgs(1, "at least one run directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if html != "" && len(args) > 1 {
				return usagef("--html names one page, but %d run directories were given: give one DIR, or leave --html out", len(args))
			}
			if err := refuseRunFile("html", html, filepath.Join(args[0], "report.html"), "page.html"); err != nil {
				return err
			}
			var runs []*results.WisconsinResults
			for _, dir := range args {
				pages, err := regenerate(dir, html, func(err error) { fmt.Fprintf(stderr, "warning: %v\n", err) })
				if err != nil {
					return err
				}
				for _, p := range pages {
					fmt.Fprintf(stdout, "report: %s\n", p)
				}
				rs, err := readWisconsinRuns(dir)
				if err != nil {
					return err
				}
				runs = append(runs, rs...)
			}
			if len(runs) > 0 {
				_, err := stdout.Write(report.WisconsinText(runs))
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&html, "html", "", "write the page here instead of DIR/report.html")
	return cmd
}

// regenerate rewrites dir's derived files and writes its page(s): a run
// directory's report.html (or only the page, to html), or for a
// quickstart directory each engine's files and page, side_by_side.txt and
// the engines page. A derived file that fails is a warning (warn) and the
// page is written anyway, as at the end of a run.
func regenerate(dir, html string, warn func(error)) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
		if err := readableRun(dir); err != nil {
			return nil, err
		}
		if html != "" {
			return []string{html}, writeReport(dir, html)
		}
		html = filepath.Join(dir, "report.html")
		if err := rederive(dir); err != nil {
			warn(err)
		}
		return []string{html}, writeReport(dir, html)
	}
	subs, _ := filepath.Glob(filepath.Join(dir, "*", "run", "results.json"))
	if len(subs) == 0 {
		return nil, usagef("%s: not a run directory (no results.json): give a run directory, as dbgauge list shows them", dir)
	}
	for _, s := range subs {
		if err := readableRun(filepath.Dir(s)); err != nil {
			return nil, err
		}
	}
	var pages []string
	for _, s := range subs {
		run := filepath.Dir(s)
		page := filepath.Join(run, "report.html")
		if err := rederive(run); err != nil {
			warn(fmt.Errorf("%s: %w", run, err))
		}
		if err := writeReport(run, page); err != nil {
			return pages, fmt.Errorf("%s: %w", run, err)
		}
		pages = append(pages, page)
	}
	runs, err := readWisconsinRuns(dir)
	if err != nil {
		return pages, err
	}
	if err := writePage(filepath.Join(dir, sideBySideFile), report.SideBySideText(runs)); err != nil {
		return pages, err
	}
	page, err := writeQuickstartReport(dir, html)
	if err != nil {
		return pages, err
	}
	return append(pages, page), nil
}

// readableRun refuses a run directory given as input (to report or
// compare) whose results.json or manifest.json dbgauge cannot read: a
// corrupt run is bad input, exit 2, one line naming the file, checked
// before anything is written.
func readableRun(dir string) error {
	if _, err := results.ReadRun(dir); err != nil {
		return usagef("%v: give a run directory as dbgauge wrote it (dbgauge list shows them)", err)
	}
	return nil
}

// readWisconsinRuns reads the Wisconsin results of DIR/results.json, or
// for a quickstart directory of every DIR/*/run/results.json in the order
// the runs started (the order the quickstart ran the engines, as its page
// shows them); other experiments' runs give none.
func readWisconsinRuns(dir string) ([]*results.WisconsinResults, error) {
	paths := []string{filepath.Join(dir, "results.json")}
	if _, err := os.Stat(paths[0]); err != nil {
		paths, _ = filepath.Glob(filepath.Join(dir, "*", "run", "results.json"))
	}
	var stored []*results.Stored
	for _, p := range paths {
		s, err := results.ReadRun(filepath.Dir(p))
		if err != nil {
			return nil, usagef("%v", err)
		}
		if _, ok := s.Results.(*results.WisconsinResults); ok {
			stored = append(stored, s)
		}
	}
	slices.SortStableFunc(stored, func(a, b *results.Stored) int { return startedOf(a).Compare(startedOf(b)) })
	out := make([]*results.WisconsinResults, len(stored))
	for i, s := range stored {
		out[i] = s.Results.(*results.WisconsinResults)
	}
	return out, nil
}

// startedOf is when a stored run started; the zero time without a
// manifest.
func startedOf(s *results.Stored) time.Time {
	if s.Manifest == nil {
		return time.Time{}
	}
	return s.Manifest.Started
}

// rederive rewrites the run directory's derived files from its stored
// results: its tables and diagrams (report.Files) and bench.txt, with this
// dbgauge's renderers (the same bytes as the run wrote when it is the
// version that ran). A file that cannot be drawn or written is in the
// error; the others are written.
func rederive(dir string) error {
	s, err := results.ReadRun(dir)
	if err != nil {
		return err
	}
	files, ferr := report.Files(s.Experiment, s.Results)
	return errors.Join(ferr, (&results.Run{Dir: dir}).WriteFiles(files), results.WriteBench(dir))
}
