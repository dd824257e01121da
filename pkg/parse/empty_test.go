package parse

import (
	"errors"
	"strings"
	"testing"
)

// A page without a single sample line is an error that says so, kept or not, filtered or
// not: empty, blank, comments only, or samples only after "# EOF". A page with samples, none
// of them wanted, is no error: it is a page without the wanted families.
func TestEmptyPage(t *testing.T) {
	tests := []struct {
		name, page string
		want       string // "" when the page must read without error
	}{
		{"empty", "", "src: the page is empty: is this the metrics port? is the path /metrics?"},
		{"blank lines only", "\n\n \t\n", "src: the page is empty: "},
		{"byte order mark only", "\xef\xbb\xbf", "src: the page is empty: "},
		{"comments only", "# just a comment\n#\n# HELP workqueue_depth A thing.\n# TYPE workqueue_depth gauge\n",
			"src: the page holds only comments, no samples: is this the metrics port? is the path /metrics?"},
		{"sample time only", "# ctrldiag-sample-time: 2026-11-22T03:05:00Z\n", "src: the page holds only comments, no samples: "},
		{"samples only after EOF", "# TYPE workqueue_depth gauge\n# EOF\nworkqueue_depth{name=\"a\"} 3\n",
			"src: the page holds only comments, no samples: "},
		{"samples, none wanted", "# TYPE go_goroutines gauge\ngo_goroutines 42\n", ""},
		{"one wanted sample", "\n\n# HELP x y\nworkqueue_depth{name=\"a\"} 3\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, keep := range []Keep{keepModel, nil, func(string) bool { return false }} {
				_, err := Parse("src", strings.NewReader(tt.page), keep)
				if tt.want == "" {
					if err != nil {
						t.Errorf("keep %d: %v", i, err)
					}
					continue
				}
				var e *EmptyPageError
				if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.want) {
					t.Errorf("keep %d: error = %v, want an EmptyPageError starting %q", i, err, tt.want)
				}
			}
		})
	}
}
