package printable

import "testing"

func TestLines(t *testing.T) {
	for _, tt := range []struct {
		text, first, rest string
		width             int
		want              string
	}{
		{"one two three four", "", "", 9, "one two\nthree\nfour\n"},
		{"one two three four", "  ", "    ", 11, "  one two\n    three\n    four\n"},
		{"a-word-longer-than-the-line b", "", "", 5, "a-word-longer-than-the-line\nb\n"},
		{"  ", "", "", 10, ""},
	} {
		if got := WrapLines(tt.text, tt.first, tt.rest, tt.width); got != tt.want {
			t.Errorf("Lines(%q, %q, %q, %d) = %q, want %q", tt.text, tt.first, tt.rest, tt.width, got, tt.want)
		}
	}
	if got, want := WrapHanging("- ", "one two three", 9), "- one two\n  three\n"; got != want {
		t.Errorf("Hanging = %q, want %q", got, want)
	}
}
