package results

import (
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Tags are a person's labels of a run (nightly, pg16, before-fix,
// host=db2): kept in its manifest, listed by the catalog, filtered on by
// `dbgauge list --tag` and the web interface's history. They say nothing
// about how the run was measured, so they are not part of its
// configuration and may change after the run (`dbgauge tag`).

// MaxTagLen bounds a tag (in characters): a label, not a note.
const MaxTagLen = 64

// TagExample is a tag that CheckTag accepts, for refusals.
const TagExample = "nightly"

// CheckTag tells why tag is not one: a tag is 1 to MaxTagLen letters,
// digits and - _ . : =, and begins with a letter or a digit (so that
// `dbgauge tag DIR -old` reads as removing "old", never as a flag).
func CheckTag(tag string) error {
	switch n := utf8.RuneCountInString(tag); {
	case n == 0:
		return fmt.Errorf("a tag is empty: give letters, digits and - _ . : =")
	case n > MaxTagLen:
		return fmt.Errorf("%q is longer than %d characters", tag, MaxTagLen)
	}
	for i, r := range tag {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if i == 0 && !letter {
			return fmt.Errorf("%q does not begin with a letter or a digit", tag)
		}
		if !letter && r != '-' && r != '_' && r != '.' && r != ':' && r != '=' {
			return fmt.Errorf("%q holds %q: a tag is letters, digits and - _ . : =", tag, r)
		}
	}
	return nil
}

// NormalizeTags sorts tags and drops repeats; nil when there are none, so
// that an untagged manifest has no "tags" key.
func NormalizeTags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	out := slices.Clone(tags)
	slices.Sort(out)
	return slices.Compact(out)
}

// HasTags tells whether the run carries every tag of want (any run, for
// none).
func (e CatalogEntry) HasTags(want []string) bool {
	for _, t := range want {
		if !slices.Contains(e.Tags, t) {
			return false
		}
	}
	return true
}

// WithTags keeps the entries that carry every tag of want, in order.
func WithTags(entries []CatalogEntry, want []string) []CatalogEntry {
	if len(want) == 0 {
		return entries
	}
	var out []CatalogEntry
	for _, e := range entries {
		if e.HasTags(want) {
			out = append(out, e)
		}
	}
	return out
}
