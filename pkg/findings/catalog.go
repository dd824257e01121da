// Package findings turns the health model of scraped controllers into findings: stable codes
// with a severity, the evidence (numbers and thresholds) they rest on, and a recommendation that
// names the knob for the kind of controller seen. The catalog of codes is data (catalog.yaml);
// the rules that raise them are plain functions over the model.
package findings

import (
	_ "embed"
	"fmt"
	"sort"
	"sync"

	"sigs.k8s.io/yaml"
)

//go:embed catalog.yaml
var catalogYAML []byte

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

// catalog returns the definitions by check slug. catalog.yaml is read on first use, not at
// init: every command would otherwise pay for it at start-up, `version` included.
var catalog = sync.OnceValue(func() map[string]Definition { return mustLoad(catalogYAML) })

func mustLoad(b []byte) map[string]Definition {
	var defs []Definition
	if err := yaml.UnmarshalStrict(b, &defs); err != nil {
		panic(fmt.Sprintf("findings: catalog.yaml: %v", err)) // a build-time bug, caught by the tests
	}
	m := make(map[string]Definition, len(defs))
	for _, d := range defs {
		if _, dup := m[d.Check]; dup || d.Recommendation["default"] == "" {
			panic(fmt.Sprintf("findings: catalog.yaml: check %q is duplicated or has no default recommendation", d.Check))
		}
		m[d.Check] = d
	}
	for _, d := range m {
		if _, ok := m[d.SplitFrom]; d.SplitFrom != "" && !ok {
			panic(fmt.Sprintf("findings: catalog.yaml: check %q is split from %q, which is no check", d.Check, d.SplitFrom))
		}
	}
	return m
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
