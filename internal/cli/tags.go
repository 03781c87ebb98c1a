package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/results"
)

// tagFlag labels the runs a command writes (results/tags.go).
const tagFlag = "tag"

// tagsValue is --tag: repeatable, each value one tag or several separated
// by commas, every tag checked as it is set; the tags kept sorted and
// each once.
type tagsValue struct{ tags []string }

func (v *tagsValue) Set(s string) error {
	var add []string
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		if err := results.CheckTag(t); err != nil {
			return &flagtype.Error{Reason: err.Error(), Example: results.TagExample}
		}
		add = append(add, t)
	}
	v.tags = results.NormalizeTags(append(v.tags, add...))
	return nil
}

func (v *tagsValue) String() string { return strings.Join(v.tags, ",") }

// Type is pflag's name for a repeatable list of strings.
func (v *tagsValue) Type() string { return "strings" }

// Example makes --tag's refusals show a tag that would do.
func (v *tagsValue) Example() string { return results.TagExample }

// addRunFlags adds what every command that writes runs has besides its
// own flags: --tag and --config. runSetup reads the tags.
func addRunFlags(cmd *cobra.Command) {
	cmd.Flags().Var(&tagsValue{}, tagFlag, "label the run (repeatable, or comma-separated; letters, digits and - _ . : =): dbgauge list --tag and the web interface's history find it by its tags, dbgauge tag changes them")
	addConfigFlag(cmd)
}

// tagsOf are the tags given to a command's --tag (none without it).
func tagsOf(fs *pflag.FlagSet) []string {
	if f := fs.Lookup(tagFlag); f != nil {
		if v, ok := f.Value.(*tagsValue); ok {
			return v.tags
		}
	}
	return nil
}
