package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

var relationNames = []string{"tenktup1", "tenktup2", "onektup", "bprime"}

// relation is the Wisconsin relation a --relation name stands for.
func relation(name string) w.Relation {
	return w.Relation(slices.Index(relationNames, name))
}

func init() { registerCommand("generate", newGenerate) }

// newGenerate writes a Wisconsin relation as CSV or TSV: the rows a load
// sends, for a peer loader (psql \copy, LOAD DATA) or to time the generator.
func newGenerate(stdout, stderr io.Writer) *cobra.Command {
	var output string
	size := flagtype.Count("10000", "size").Check(w.CheckSize)
	rel := flagtype.Choice("tenktup1", relationNames...)
	format := flagtype.Choice("csv", "csv", "tsv")
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write one Wisconsin relation as CSV or TSV (for peer loaders and generator timing)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sep := byte(',')
			if format.V == "tsv" {
				sep = '\t'
			}
			out := stdout
			if output != "" && output != "-" {
				f, err := os.Create(output)
				if err != nil {
					return usagef("--output %s: %v", output, err)
				}
				defer f.Close()
				out = f
			}
			start := time.Now()
			n, err := writeRelation(out, relation(rel.V), size.V, sep)
			if err != nil {
				return err
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(stderr, "generated %d rows of %s in %.2f s (%.0f rows/s)\n", n, w.TableName(relation(rel.V), size.V), secs, float64(n)/secs)
			return nil
		},
	}
	cmd.Flags().Var(size, "size", "base relation size N")
	cmd.Flags().Var(rel, "relation", "tenktup1, tenktup2, onektup or bprime")
	cmd.Flags().Var(format, "format", "csv or tsv")
	cmd.Flags().StringVar(&output, "output", "", "file to write (default standard output)")
	return cmd
}

func writeRelation(out io.Writer, rel w.Relation, n int64, sep byte) (int64, error) {
	rows, err := w.NewRows(rel, n)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	row := make([]any, len(w.Attributes))
	var buf []byte
	var count int64
	for rows.Next(row) {
		buf = buf[:0]
		for i, v := range row {
			if i > 0 {
				buf = append(buf, sep)
			}
			switch x := v.(type) {
			case int64:
				buf = strconv.AppendInt(buf, x, 10)
			case string:
				buf = append(buf, x...) // Wisconsin strings hold only A-Z and x
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return count, err
		}
		count++
	}
	return count, bw.Flush()
}

func init() { registerCommand("load", newLoad) }

// newLoad loads Wisconsin relations and nothing else, timing each load.
func newLoad(stdout, stderr io.Writer) *cobra.Command {
	var db, out string
	sizes := flagtype.Counts("10000").Check(w.CheckSize)
	rels := flagtype.Choices("tenktup1,tenktup2,onektup,bprime", relationNames...)
	cmd := &cobra.Command{
		Use:   "load",
		Short: "Load Wisconsin relations into an engine through its fastest bulk path, timed",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var rs []w.Relation
			for _, r := range rels.Values {
				rs = append(rs, relation(r))
			}
			if db == "" {
				return usagef("load: --db is required")
			}
			if out == "" {
				out = results.DefaultDir(defaultRunsDir, "load", time.Now())
			}
			if err := results.CheckWritable(out); err != nil {
				return usagef("%v", err)
			}
			all, err := experiment.RunLoad(cmd.Context(), db, out, sizes.Values, rs, progress.New(stderr))
			for _, l := range all {
				fmt.Fprintf(stdout, "%s\t%d rows\t%.3f s\t%.0f rows/s\n", l.Table, l.Rows, l.Seconds, l.RowsPerS)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "engine URL")
	cmd.Flags().Var(sizes, "size", "base relation size N (a list loads each)")
	cmd.Flags().Var(rels, "relations", "relations to load")
	cmd.Flags().StringVar(&out, "out", "", "run directory (default runs/<UTC time>-load)")
	return cmd
}
