package suppress

import (
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that no ignore file makes Parse panic or hang, that every problem is one
// error naming the file, and that every entry it accepts has a check of the catalog, a
// reason and the line it came from.
func FuzzParse(f *testing.F) {
	f.Add([]byte(file))
	for _, seed := range []string{
		"", "ignore:\n", "ignore: ~\n", "# nothing\n", "ignore: []\n",
		"ignore:\n- check: CD208\n", "ignore:\n- {check: CD208, reason: x, expires: 2026-02-30}\n",
		"ignore:\n- check: [a, b]\n  reason: x\n", "ignore: &a\n- *a\n", "other: 1\n",
		"ignore:\n- &e {check: CD208, reason: r}\n- *e\n",
		"a: &a [*a, *a]\nignore:\n", "ignore:\n- check: CD208\n  reason: \"\\u0000\"\n",
		"\t- :\n", "ignore:\n- check: CD208\n  reason: x\n---\nignore: 3\n",
		"ignore: !!binary aGk=\n", "ignore:\n- !!map {check: CD208, reason: x}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic("Parse did not return within 10s")
			}
		}()
		r, err := Parse("f.yaml", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ignore file f.yaml") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for _, e := range r.Entries {
			if _, ok := CheckOf(e.Check); !ok || e.Reason == "" || !strings.HasPrefix(e.Source, "f.yaml:") {
				t.Fatalf("accepted a bad entry: %+v", e)
			}
		}
	})
}
