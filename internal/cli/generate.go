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
				if err := refuseRunFile("output", output, "", "tenktup1.csv"); err != nil {
					return err
				}
				f, err := os.Create(output)
				if err != nil {
					return usagef("--output %s: %v: choose another --output (or - for standard output)", output, err)
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
