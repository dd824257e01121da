package parse

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// FuzzParse checks that no input makes Parse panic, filtered or not, and that a page Parse
// finds not to be text exposition is one that expfmt rejects too.
func FuzzParse(f *testing.F) {
	for _, page := range fixtures(f) {
		if len(page) < 100000 {
			f.Add(page[:min(len(page), 4096)])
		}
	}
	f.Add([]byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\",priority=\"\"} 1\n"))
	f.Add([]byte("# TYPE workqueue_work_duration_seconds histogram\nworkqueue_work_duration_seconds_bucket{le=\"+Inf\"} 1\n"))
	f.Add([]byte("{\"a.b\"} 1\n# HELP \"x\" y\n"))
	f.Add([]byte("<html><body>Login</body></html>\n"))
	f.Add([]byte("{\"status\":\"success\"}\n"))
	f.Add([]byte("\xef\xbb\xbfa{b=\"}\"}1\nc-1\n"))
	f.Fuzz(func(t *testing.T, page []byte) {
		// A parse that does not end is a failure too: it would hang the command.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("Parse did not return within 10s on %q", page))
			}
		}()
		for _, keep := range []Keep{keepModel, nil, func(string) bool { return false }} {
			_, err := Parse("fuzz", bytes.NewReader(page), keep)
			if err := notTextOnlyIfInvalid(page, err); err != nil {
				t.Fatalf("%q: %v", page, err)
			}
		}
	})
}

// notTextOnlyIfInvalid checks that when Parse found page not to be text exposition (err), expfmt
// rejects the page too (without its byte order mark, which Parse drops): the check must never
// take a valid page for something else.
func notTextOnlyIfInvalid(page []byte, err error) error {
	var nt *NotTextError
	if !errors.As(err, &nt) {
		return nil
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	if _, perr := parser.TextToMetricFamilies(bytes.NewReader(bytes.TrimPrefix(page, utf8BOM))); perr == nil {
		return fmt.Errorf("a page expfmt reads was taken for something else: %v", err)
	}
	return nil
}
