package results

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteCatalog writes entries as the text table of `dbgauge list`, one run
// a line in the order given (List's is newest first): when it started
// (UTC), experiment, engine and version, status, the headline figure, the
// tags and the run directory relative to the directory of runs.
func WriteCatalog(w io.Writer, entries []CatalogEntry) error {
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "no runs")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED (UTC)\tEXPERIMENT\tENGINE\tSTATUS\tHEADLINE\tTAGS\tDIRECTORY")
	for _, e := range entries {
		started := "-"
		if !e.Started.IsZero() {
			started = e.Started.UTC().Format("2006-01-02 15:04:05")
		}
		headline := e.Headline.Text
		if e.Headline.Label != "" {
			headline = e.Headline.Label + ": " + e.Headline.Text
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", started, cell(e.Experiment), cell(strings.TrimSpace(e.Engine+" "+e.EngineVersion)),
			e.Status(), cell(headline), cell(strings.Join(e.Tags, ",")), e.Path)
	}
	return tw.Flush()
}

// cell keeps a table cell on one line and never empty.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "-"
	}
	return s
}
