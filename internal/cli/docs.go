package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// DocsDate is the date in every generated man page's header. It is fixed so
// that the pages depend on the commands alone: regenerating them on another
// day or machine gives the same files, and docs_test.go can compare them.
var DocsDate = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// GenerateDocs writes the man pages (section 1) of every command into manDir
// and a Markdown reference of every command into mdDir, from the same
// command tree the binary runs. Earlier generated files (dbgauge*.1,
// dbgauge*.md) are removed first, so a removed command leaves no page behind.
// cmd/dbgauge-docs (make docs) calls it.
func GenerateDocs(manDir, mdDir string) error {
	for _, d := range []struct{ dir, pattern string }{{manDir, docsPatterns[0]}, {mdDir, docsPatterns[1]}} {
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			return fmt.Errorf("docs: %w", err)
		}
		old, _ := filepath.Glob(filepath.Join(d.dir, d.pattern))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("docs: %w", err)
			}
		}
	}
	root := docsRoot()
	header := &doc.GenManHeader{Title: "DBGAUGE", Section: "1", Source: "dbgauge", Manual: "dbgauge manual", Date: &DocsDate}
	if err := doc.GenManTree(root, header, manDir); err != nil {
		return fmt.Errorf("docs: man pages: %w", err)
	}
	if err := doc.GenMarkdownTree(root, mdDir); err != nil {
		return fmt.Errorf("docs: markdown: %w", err)
	}
	return nil
}

// docsRoot is the command tree as documented: no auto-generated footer
// (it would carry the day's date) anywhere in the tree.
func docsRoot() *cobra.Command {
	root := newRoot(io.Discard, io.Discard)
	var off func(c *cobra.Command)
	off = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, s := range c.Commands() {
			off(s)
		}
	}
	off(root)
	return root
}

// docsPatterns are the names of the files GenerateDocs writes: man pages,
// then Markdown.
var docsPatterns = [2]string{"dbgauge*.1", "dbgauge*.md"}

// docsName says whether a file name is one GenerateDocs writes.
func docsName(name string) bool {
	for _, p := range docsPatterns {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}
