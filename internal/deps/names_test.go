package deps

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// allowance lets one file name what a nameRule keeps in its own trees:
// either one exact token (an identifier, or a string literal with its
// quotes) or, with prose set, every string literal that holds a space
// (sentences of help text and messages, which describe and decide
// nothing).
type allowance struct {
	file  string
	token string
	prose bool
	why   string
}

// walkGo calls visit with every non-test .go file of the repository
// (rel: its path from the root, slash-separated), leaving out hidden
// directories, testdata and the directories skip says.
func walkGo(skip func(rel string) bool, visit func(rel, path string) error) error {
	root := filepath.Join("..", "..")
	return filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if info.IsDir() {
			if strings.HasPrefix(info.Name(), ".") && rel != "." || info.Name() == "testdata" || skip(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return visit(rel, path)
	})
}

// nameRule is knowledge kept in its trees: a non-test .go file outside
// them that names it in code (an identifier or a string literal; comments
// do not count) fails, unless allowed lists the mention with a reason.
type nameRule struct {
	what    string // "an engine"
	pattern *regexp.Regexp
	trees   []string
	allowed []allowance
	list    string // the allowed list's name, for the message
	fix     string
}

func (r nameRule) check(t *testing.T) {
	t.Helper()
	used := make([]bool, len(r.allowed))
	err := walkGo(func(rel string) bool { return slices.Contains(r.trees, rel+"/") }, func(rel, path string) error {
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file := fset.AddFile(rel, fset.Base(), len(src))
		var s scanner.Scanner
		s.Init(file, src, func(pos token.Position, msg string) { t.Errorf("%s: %s", pos, msg) }, 0) // comments skipped
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.IDENT && tok != token.STRING && tok != token.CHAR || !r.pattern.MatchString(lit) {
				continue
			}
			allowed := false
			for i, a := range r.allowed {
				if a.file == rel && (a.token == lit || a.prose && tok == token.STRING && strings.ContainsAny(lit, " \n")) {
					used[i], allowed = true, true
					break
				}
			}
			if !allowed {
				t.Errorf("%s names %s (%s) in %.60q (%s; or allow it in %s with a reason)", fset.Position(pos), r.what, strings.Join(r.pattern.FindAllString(lit, -1), ", "), lit, r.fix, r.list)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range r.allowed {
		if !used[i] {
			t.Errorf("%s: %s %q (prose %v) matches nothing any more: remove it", r.list, a.file, a.token, a.prose)
		}
	}
}
