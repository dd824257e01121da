// Package findings turns the health model of scraped controllers into findings: stable codes
// with a severity, the evidence (numbers and thresholds) they rest on, and a recommendation that
// names the knob for the kind of controller seen. The catalog of codes is data (catalog.yaml);
// the rules that raise them are plain functions over the model.
//
// A FailOnLevel is --fail-on: whether findings (FailOnReported) or the findings that
// appeared in a diff (FailOnAppeared) reach a severity.
package findings

import (
	"fmt"
	"sort"
	"sync"

	"sigs.k8s.io/yaml"
)

// catalog.yaml is compiled into catalog_gen.go (catalogDefinitions), so that a run does not
// parse it; a test holds the two equal.
//go:generate go run ../../../hack/gentables -table findings

// Definition is one entry of the catalog.
type Definition struct {
	Code           string            `json:"code"`
	Check          string            `json:"check"`
	Severity       Severity          `json:"severity"`
	Rank           int               `json:"rank"`
	Title          string            `json:"title"`
	Explanation    string            `json:"explanation"`
	Recommendation map[string]string `json:"recommendation"`
	// SplitFrom is the check that raised this one's findings before it had a check of its own:
	// ignores of that check cover this one too (SelectedBy), so that what was written before
	// the split keeps working.
	SplitFrom string `json:"splitFrom,omitempty"`
	// Thresholds are the json names of the thresholds the check is judged against.
	Thresholds []string `json:"thresholds,omitempty"`
}

// RecommendationFor returns the recommendation for a kind of controller, or the default.
func (d Definition) RecommendationFor(kind Kind) string {
	if r, ok := d.Recommendation[string(kind)]; ok {
		return r
	}
	return d.Recommendation["default"]
}

// catalog returns the definitions by check slug, indexed on first use.
var catalog = sync.OnceValue(func() map[string]Definition {
	m, err := index(catalogDefinitions)
	if err != nil {
		panic(err) // a build-time bug, caught by the tests
	}
	return m
})

// ParseCatalog reads the text of catalog.yaml into its definitions, checked as a run uses
// them.
func ParseCatalog(b []byte) ([]Definition, error) {
	var defs []Definition
	if err := yaml.UnmarshalStrict(b, &defs); err != nil {
		return nil, fmt.Errorf("findings: catalog.yaml: %w", err)
	}
	if _, err := index(defs); err != nil {
		return nil, err
	}
	return defs, nil
}

// index returns the definitions by check slug, or what is wrong with them.
func index(defs []Definition) (map[string]Definition, error) {
	m := make(map[string]Definition, len(defs))
	for _, d := range defs {
		if _, dup := m[d.Check]; dup || d.Recommendation["default"] == "" {
			return nil, fmt.Errorf("findings: catalog.yaml: check %q is duplicated or has no default recommendation", d.Check)
		}
		m[d.Check] = d
	}
	for _, d := range m {
		if _, ok := m[d.SplitFrom]; d.SplitFrom != "" && !ok {
			return nil, fmt.Errorf("findings: catalog.yaml: check %q is split from %q, which is no check", d.Check, d.SplitFrom)
		}
	}
	return m, nil
}

// Catalog returns every definition, ordered by code.
func Catalog() []Definition {
	out := make([]Definition, 0, len(catalog()))
	for _, d := range catalog() {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// SelectedBy lists the check names that select the findings of check, in an ignore or a
// --for: check itself, then the check it was split from, if any, so that what was written
// before the split keeps working.
func SelectedBy(check string) []string {
	out := []string{check}
	if d, ok := catalog()[check]; ok && d.SplitFrom != "" {
		out = append(out, d.SplitFrom)
	}
	return out
}

// Lookup returns the definition of a check slug.
func Lookup(check string) (Definition, bool) {
	d, ok := catalog()[check]
	return d, ok
}
