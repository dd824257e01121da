package cli

import "testing"

// A list entry written over several lines is one entry, wrapped under its text; a command
// line and an entry of its own stay lines of their own.
func TestReflowKeepsListEntriesWhole(t *testing.T) {
	in := "Writes:\n\n  - the raw pages of every target, as read (within\n    --max-body-bytes), and the time of each;\n  - the targets.\n\n  kubectl ctrldiag x \\\n      --flag"
	want := "Writes:\n\n  - the raw pages of every target, as read (within --max-body-bytes), and the\n    time of each;\n  - the targets.\n\n  kubectl ctrldiag x \\\n      --flag"
	if got := reflow(in, 80); got != want {
		t.Errorf("reflow:\n%s\nwant:\n%s", got, want)
	}
}
