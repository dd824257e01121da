package printer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// SortBy returns v, a list (a struct whose Items field is a slice, as queues and targets
// print), with its items in the order of the JSONPath path into each item's -o json form
// (".depth" or "{.depth}"), as kubectl get --sort-by orders them: numbers by value, text
// by its bytes, the order of equal items kept. Items without a value (a missing field, null)
// come last. A text field ranks has a rank for (by its path without braces, e.g. ".status")
// sorts by that rank instead, lowest first. v itself is not changed.
func SortBy(v any, path string, ranks map[string]func(string) int) (any, error) {
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
	rank := ranks[bare(path)]
	for i, it := range its {
		keys[i] = sortKey(jp, it)
		if text, ok := keys[i].(string); ok && rank != nil {
			keys[i] = float64(rank(text))
		}
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

// bare is a --sort-by path without its braces and spaces.
func bare(path string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(path), "{"), "}"))
}

// CheckSortBy checks a --sort-by path before anything is read: it must parse, and a path of
// plain fields (".depth", ".depthByPriority.0", ".items[0].x") must name a field of item, a
// value of the -o json form of one item of the list, as kubectl refuses a field no object has.
func CheckSortBy(path string, item any) error {
	if _, err := sortPath(path); err != nil {
		return err
	}
	if !knownPath(reflect.TypeOf(item), bare(path)) {
		return fmt.Errorf("--sort-by %s: the items have no such field (-o json shows an item's fields)", path)
	}
	return nil
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

// plainPath matches a path of plain fields and indexes, the only ones CheckSortBy can check.
var plainPath = regexp.MustCompile(`^(\.[A-Za-z0-9_-]+|\[[0-9]+\])+$`)

// segment is one field name or [index] of a plain path.
var segment = regexp.MustCompile(`\.[A-Za-z0-9_-]+|\[[0-9]+\]`)

// knownPath says whether path could name a value in the JSON form of t: true for a path
// that is not plain (filters, wildcards, recursion), or that reaches a map, an interface or
// a type that writes its own JSON (its fields are not known).
func knownPath(t reflect.Type, path string) bool {
	if t == nil || !plainPath.MatchString(path) {
		return true
	}
	for _, seg := range segment.FindAllString(path, -1) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
			return true
		}
		switch t.Kind() {
		case reflect.Map, reflect.Interface:
			return true
		case reflect.Slice, reflect.Array:
			if !strings.HasPrefix(seg, "[") {
				return false
			}
			t = t.Elem()
		case reflect.Struct:
			f, ok := jsonField(t, strings.TrimPrefix(seg, "."))
			if !ok || strings.HasPrefix(seg, "[") {
				return false
			}
			t = f
		default:
			return false
		}
	}
	return true
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// jsonField is the type of the field of struct t written under name in JSON (embedded
// structs' fields included).
func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && tag == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if ft, ok := jsonField(et, name); ok {
					return ft, true
				}
				continue
			}
		}
		if tag == "" {
			tag = f.Name
		}
		if tag == name {
			return f.Type, true
		}
	}
	return nil, false
}
