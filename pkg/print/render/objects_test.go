package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func objectList() view.QueueList {
	depth, adds := 3.0, 1.5
	return view.QueueList{APIVersion: view.APIVersion, Kind: "QueueList", Items: []view.Queue{
		{Target: "ns/pod-a", Controller: "c", Queue: "widget", Depth: &depth, AddsPerSecond: &adds, Status: "OK"},
		{Cluster: "east", Target: "ns/pod-b", Controller: "c", Queue: "evil\x1b[31m\nqueue", Status: "SATURATED"},
	}}
}

func writeAs(t *testing.T, format string, v any, allowed ...string) string {
	t.Helper()
	prepared, err := printer.Prepare(format, allowed...)
	if err != nil {
		t.Fatalf("printer.Prepare(%q): %v", format, err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, prepared, v); err != nil {
		t.Fatalf("Write(%q): %v", format, err)
	}
	return buf.String()
}

var queueFormats = append(append([]string{"", "wide", "json", "yaml"}, printer.ItemFormats...), printer.TemplateFormats...)

// kubectl's forms print the data of -o json; strings from outside stay escaped in each.
func TestObjectForms(t *testing.T) {
	dir := t.TempDir()
	columnsFile := filepath.Join(dir, "columns")
	if err := os.WriteFile(columnsFile, []byte("QUEUE  DEPTH\n.queue .depth\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	templateFile := filepath.Join(dir, "template")
	if err := os.WriteFile(templateFile, []byte(`{{range .items}}{{.queue}};{{end}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ format, want string }{
		{"name", "queue.ctrldiag.dev/ns/pod-a/widget\nqueue.ctrldiag.dev/east/ns/pod-b/evil\\x1b[31m\\nqueue\n"},
		{"jsonpath={.items[*].queue}", "widget evil\\x1b[31m\\nqueue"},
		{"jsonpath={.items[0].depth}", "3"},
		{"go-template={{range .items}}{{.status}},{{end}}", "OK,SATURATED,"},
		{"template={{len .items}}", "2"},
		{"go-template-file=" + templateFile, "widget;evil\\x1b[31m\\nqueue;"},
		{"templatefile=" + templateFile, "widget;evil\\x1b[31m\\nqueue;"},
		{"custom-columns=QUEUE:.queue,DEPTH:.depth,ADDS:{.addsPerSecond},NONE:.nope",
			"QUEUE                 DEPTH    ADDS     NONE\nwidget                3        1.5      <none>\nevil\\x1b[31m\\nqueue   <none>   <none>   <none>\n"},
		{"custom-columns-file=" + columnsFile, "QUEUE                 DEPTH\nwidget                3\nevil\\x1b[31m\\nqueue   <none>\n"},
	} {
		if got := writeAs(t, c.format, objectList(), queueFormats...); got != c.want {
			t.Errorf("-o %s:\n got %q\nwant %q", c.format, got, c.want)
		}
	}
}

// A value kubectl's forms cannot take is a usage error that says what to type, before any
// target is read.
func TestPrepareRefuses(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	for _, c := range []struct {
		format  string
		allowed []string
		want    string
	}{
		{"jsonpath=", queueFormats, "needs a value after the ="},
		{"jsonpath={.items[", queueFormats, "unterminated array"},
		{"go-template={{.x", queueFormats, "-o go-template"},
		{"custom-columns=QUEUE", queueFormats, `"QUEUE" is not HEADER:JSONPATH`},
		{"custom-columns=QUEUE:{.items[", queueFormats, "column QUEUE"},
		{"jsonpath-file=" + missing, queueFormats, "-o jsonpath-file"},
		{"name", []string{"", "json"}, `unknown output format "name": use one of json`},
		{"custom-columns=A:.a", append([]string{"json"}, printer.TemplateFormats...), "use one of json, jsonpath="},
		{"jsonpathx={.a}", queueFormats, "unknown output format"},
	} {
		_, err := printer.Prepare(c.format, c.allowed...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("printer.Prepare(%q) = %v, want an error with %q", c.format, err, c.want)
		}
	}
}

// -o name is for lists; a report is one document.
func TestNamesOfAReport(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "name", view.Report{APIVersion: view.APIVersion, Kind: "Report"}); err == nil {
		t.Error("-o name of a report printed, want an error")
	}
}
