package parse

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// FuzzParse checks that no input makes Parse panic, filtered or not.
func FuzzParse(f *testing.F) {
	for _, page := range fixtures(f) {
		if len(page) < 100000 {
			f.Add(page[:min(len(page), 4096)])
		}
	}
	f.Add([]byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\",priority=\"\"} 1\n"))
	f.Add([]byte("# TYPE workqueue_work_duration_seconds histogram\nworkqueue_work_duration_seconds_bucket{le=\"+Inf\"} 1\n"))
	f.Add([]byte("{\"a.b\"} 1\n# HELP \"x\" y\n"))
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
		_, _ = Parse("fuzz", bytes.NewReader(page), keepModel)
		_, _ = Parse("fuzz", bytes.NewReader(page), nil)
	})
}
