package printable

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{0, "queue", "0 queues"}, {1, "queue", "1 queue"}, {2, "queue", "2 queues"},
		{1, "target", "1 target"}, {3, "replica", "3 replicas"}, {2, "query", "2 queries"},
		{2, "key", "2 keys"}, {1, "series", "1 series"}, {5, "series", "5 series"},
		{1, "critical finding", "1 critical finding"}, {2, "critical finding", "2 critical findings"},
	} {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	for _, c := range []struct {
		n          int
		verb, want string
	}{{1, "are", "is"}, {2, "are", "are"}, {1, "have", "has"}, {0, "have", "have"}, {1, "wait", "waits"}, {4, "wait", "wait"}} {
		if got := PluralVerb(c.n, c.verb); got != c.want {
			t.Errorf("Verb(%d, %q) = %q, want %q", c.n, c.verb, got, c.want)
		}
	}
}
