package printer

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/util/jsonpath"
)

// column is one column of -o custom-columns=HEADER:JSONPATH,...
type column struct {
	header string
	path   *jsonpath.JSONPath
}

// parseColumns reads a custom-columns spec as kubectl does: comma-separated HEADER:PATH,
// where PATH is a JSONPath into each item, with or without its braces (".queue" or
// "{.queue}"). A columns file holds the headers on its first line and the paths under them.
func parseColumns(spec string) ([]column, error) {
	spec = strings.TrimSpace(spec)
	var pairs [][2]string
	if lines := strings.Split(spec, "\n"); len(lines) > 1 {
		headers, paths := strings.Fields(lines[0]), strings.Fields(lines[1])
		if len(headers) != len(paths) {
			return nil, fmt.Errorf("-o custom-columns-file: %d headers and %d paths: the first line names the columns, the second their JSONPaths", len(headers), len(paths))
		}
		for i := range headers {
			pairs = append(pairs, [2]string{headers[i], paths[i]})
		}
	} else {
		for _, part := range strings.Split(spec, ",") {
			header, path, ok := strings.Cut(part, ":")
			if !ok || header == "" || path == "" {
				return nil, fmt.Errorf("-o custom-columns: %q is not HEADER:JSONPATH (e.g. %s)", part, example("custom-columns"))
			}
			pairs = append(pairs, [2]string{header, path})
		}
	}
	cols := make([]column, 0, len(pairs))
	for _, p := range pairs {
		path := p[1]
		if !strings.HasPrefix(path, "{") {
			path = "{" + path + "}"
		}
		jp := jsonpath.New(p[0]).AllowMissingKeys(true)
		if err := jp.Parse(path); err != nil {
			return nil, fmt.Errorf("-o custom-columns: column %s: %v", p[0], err)
		}
		cols = append(cols, column{header: p[0], path: jp})
	}
	return cols, nil
}

// writeColumns prints the columns of each item, aligned as kubectl aligns them, "<none>"
// where an item has no value; the header line first unless noHeaders.
func writeColumns(w io.Writer, cols []column, items []map[string]any, noHeaders bool) error {
	tw := printers.GetNewTabWriter(w)
	headers := make([]string, len(cols))
	for i, c := range cols {
		headers[i] = c.header
	}
	if !noHeaders {
		fmt.Fprintln(tw, strings.Join(headers, "\t"))
	}
	for _, it := range items {
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = cell(c.path, it)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// cell is what path finds in item: its values joined by commas, as kubectl joins them, or
// "<none>" where there are none (a missing field or null).
func cell(path *jsonpath.JSONPath, item map[string]any) string {
	results, err := path.FindResults(item)
	if err != nil {
		return "<none>"
	}
	var values []string
	for _, r := range results {
		for _, v := range r {
			if v.IsValid() && !(v.Kind() == reflect.Interface && v.IsNil()) {
				values = append(values, fmt.Sprintf("%v", v.Interface()))
			}
		}
	}
	if len(values) == 0 {
		return "<none>"
	}
	return strings.Join(values, ",")
}
