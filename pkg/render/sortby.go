package render

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// SortBy returns v, a list (a struct whose Items field is a slice, as queues and targets
// print), with its items in the order of the JSONPath path into each item's -o json form
// (".depth" or "{.depth}"), as kubectl get --sort-by orders them: numbers by value, text
// by its bytes, the order of equal items kept. Items without a value (a missing field, null)
// come last. v itself is not changed.
func SortBy(v any, path string) (any, error) {
	jp, err := sortPath(path)
	if err != nil {
		return nil, err
	}
	in := reflect.ValueOf(v)
	field := in.FieldByName("Items")
	if in.Kind() != reflect.Struct || !field.IsValid() || field.Kind() != reflect.Slice {
		return nil, fmt.Errorf("--sort-by orders the items of a list, and this output is a %T", v)
	}
	doc, err := asMaps(v)
	if err != nil {
		return nil, err
	}
	its := items(doc)
	if len(its) != field.Len() {
		return nil, fmt.Errorf("--sort-by: %d items in the list and %d in its data", field.Len(), len(its))
	}
	keys := make([]any, len(its))
	for i, it := range its {
		keys[i] = sortKey(jp, it)
	}
	order := make([]int, len(its))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return compareKeys(keys[a], keys[b]) })
	out := reflect.New(in.Type()).Elem()
	out.Set(in)
	sorted := reflect.MakeSlice(field.Type(), field.Len(), field.Len())
	for i, from := range order {
		sorted.Index(i).Set(field.Index(from))
	}
	out.FieldByName("Items").Set(sorted)
	return out.Interface(), nil
}

// sortPath parses a --sort-by path, with or without its braces.
func sortPath(path string) (*jsonpath.JSONPath, error) {
	if strings.TrimSpace(path) == "" {
		return nil, fmt.Errorf("--sort-by needs a JSONPath into each item, e.g. --sort-by .depth")
	}
	if !strings.HasPrefix(path, "{") {
		path = "{" + path + "}"
	}
	jp := jsonpath.New("sort-by").AllowMissingKeys(true)
	if err := jp.Parse(path); err != nil {
		return nil, fmt.Errorf("--sort-by %q is not a JSONPath: %v", path, err)
	}
	return jp, nil
}

// CheckSortBy checks a --sort-by path before anything is read.
func CheckSortBy(path string) error {
	_, err := sortPath(path)
	return err
}

// sortKey is the first value path finds in item, or nil.
func sortKey(jp *jsonpath.JSONPath, item map[string]any) any {
	results, err := jp.FindResults(item)
	if err != nil {
		return nil
	}
	for _, r := range results {
		for _, v := range r {
			if v.IsValid() && v.CanInterface() {
				return v.Interface()
			}
		}
	}
	return nil
}

// compareKeys orders values of -o json: numbers, then text, then true/false, then the rest by
// their text; nil after everything.
func compareKeys(a, b any) int {
	ra, rb := keyRank(a), keyRank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch a := a.(type) {
	case float64:
		return cmp.Compare(a, b.(float64))
	case string:
		return strings.Compare(a, b.(string))
	case bool:
		return cmp.Compare(boolRank(a), boolRank(b.(bool)))
	case nil:
		return 0
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func keyRank(v any) int {
	switch v.(type) {
	case float64:
		return 0
	case string:
		return 1
	case bool:
		return 2
	case nil:
		return 4
	}
	return 3
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
