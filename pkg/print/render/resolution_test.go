package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// The resolution the answer may have come from is said under the header of the report's human
// formats and under the queue table only when the server may have answered from downsampled
// data; -o json keeps its own field, --no-headers leaves the line out, and a raw answer says
// nothing of it.
func TestSourceResolutionLine(t *testing.T) {
	const note = "up to 5m (Thanos Query may answer from downsampled data)"
	r := fixtureReport(t)
	r.Resolution = "raw"
	for _, f := range []string{"", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, f, r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "ource resolution") {
			t.Errorf("-o %q of a raw answer speaks of the source resolution:\n%s", f, b.String())
		}
	}
	r.Resolution, r.ResolutionNote = "up to 5m: downsampled data may have been used", note+"\x1b[31m"
	for f, want := range map[string]string{
		"":         "Source resolution: " + note,
		"markdown": "**Source resolution:** " + note,
		"html":     "<dt>Source resolution</dt><dd>" + note,
	} {
		var b bytes.Buffer
		if err := Write(&b, f, r); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, want) {
			t.Errorf("-o %q does not say %q:\n%s", f, want, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("-o %q prints the note raw", f)
		}
	}
	var b bytes.Buffer
	if err := Write(&b, "json", r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "ource resolution") || !strings.Contains(b.String(), `"resolution": "up to 5m`) {
		t.Errorf("-o json holds the text line, or lacks its resolution:\n%s", b.String())
	}

	l := view.QueueList{APIVersion: view.APIVersion, Kind: "QueueList", Window: "10m0s", Items: []view.Queue{}, Resolution: "raw"}
	for _, o := range []ListOptions{{}, {NoHeaders: true}} {
		b.Reset()
		if err := WriteList(&b, "", l, o); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "ource resolution") {
			t.Errorf("the table of a raw answer speaks of the source resolution:\n%s", b.String())
		}
	}
	l.ResolutionNote = note
	for _, f := range []string{"", "wide"} {
		b.Reset()
		if err := WriteList(&b, f, l, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if !strings.HasPrefix(lines[0], "TARGET") || !strings.Contains(b.String(), "Source resolution: up to 5m") {
			t.Errorf("-o %q: want the header first and the source resolution under the table:\n%s", f, b.String())
		}
	}
	b.Reset()
	if err := WriteList(&b, "", l, ListOptions{NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 0 {
		t.Errorf("--no-headers of an empty table prints %q", b.String())
	}
}
