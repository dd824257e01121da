package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/hostiletext"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/diff"
)

// attack is put before every string of a view: what a label value, a pod name, an error body,
// a log line or an ignore file's reason may hold to act on a terminal (escape sequences, C1
// controls, DEL, bidi override), a CI log (a leading workflow command, and another one after
// a carriage return, which the runner reads as a new line), Markdown (a backtick that ends a
// code span, a link, an autolink, emphasis, a table cell's end) or HTML (a tag).
const attack = "::error::lead `tick` ``` [x](https://evil.example/y) <img src=x onerror=alert(1)> www.evil.example *b* _i_ | " +
	"\r::warning::cr \x7fdel \u0085nel \u009b31m \u202ebidi \x1b]0;title\x07 &lt;i&gt; "

// fillDepth bounds how deep fillAttack creates what was empty (a section holds sections).
const fillDepth = 7

// fillAttack puts attack before every exported string under v, map keys included; it first
// gives nil pointers a value and empty slices and maps an element, so that every field of
// every section holds outside text.
func fillAttack(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(attack + v.String())
		}
	case reflect.Pointer:
		if v.IsNil() {
			if depth >= fillDepth || !v.CanSet() || !fillable(v.Type().Elem()) {
				return
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillAttack(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillAttack(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 && depth < fillDepth && v.CanSet() && fillable(v.Type().Elem()) {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := 0; i < v.Len(); i++ {
			fillAttack(v.Index(i), depth+1)
		}
	case reflect.Map:
		if !v.CanSet() {
			return
		}
		keys := v.MapKeys()
		if len(keys) == 0 && depth < fillDepth && fillable(v.Type().Elem()) {
			keys = []reflect.Value{reflect.Zero(v.Type().Key())}
		}
		// Keys are values: each entry is copied, filled and set again under its filled key.
		out := reflect.MakeMap(v.Type())
		for _, key := range keys {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(key)
			e := reflect.New(v.Type().Elem()).Elem()
			if old := v.MapIndex(key); old.IsValid() {
				e.Set(old)
			}
			fillAttack(k, depth+1)
			fillAttack(e, depth+1)
			out.SetMapIndex(k, e)
		}
		v.Set(out)
	}
}

// fillable reports whether fillAttack gives a value of type t strings to hold: not a time, a
// number behind a pointer or anything without exported fields.
func fillable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return fillable(t.Elem())
	case reflect.Map:
		return fillable(t.Key()) || fillable(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() && fillable(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// attacked is v with attack before every string it holds.
func attacked[T any](v T) T {
	fillAttack(reflect.ValueOf(&v).Elem(), 0)
	return v
}

// commandLine is a workflow command that -o github writes itself, up to its message.
var commandLine = regexp.MustCompile(`^::(error|warning|notice) title=[^:\r\n]*::`)

// markdownTags are the tags the Markdown of a report and a diff may render to: its own
// headings, tables, lists, emphasis and code, never a link, an image or a tag of its own.
var markdownTags = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)`)

var allowedMarkdownTags = map[string]bool{"h1": true, "h2": true, "h3": true, "h4": true, "p": true, "table": true,
	"thead": true, "tbody": true, "tr": true, "th": true, "td": true, "ul": true, "li": true, "strong": true,
	"em": true, "code": true, "br": true, "hr": true, "pre": true}

// checkFormat checks out, what format wrote, by that format's own rules.
func checkFormat(t *testing.T, format, out string) {
	t.Helper()
	switch {
	case strings.HasSuffix(format, "github"):
		for _, line := range strings.Split(out, "\n") {
			rest := commandLine.ReplaceAllString(line, "")
			if p := hostiletext.Problem(rest); p != "" {
				t.Errorf("%s: %s in the line %q", format, p, line)
			}
			if strings.Contains(rest, "\r") {
				t.Errorf("%s: a raw carriage return starts a new workflow command: %q", format, line)
			}
		}
		return
	case strings.HasSuffix(format, "markdown"):
		var html bytes.Buffer
		md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
		if err := md.Convert([]byte(out), &html); err != nil {
			t.Fatal(err)
		}
		page := html.String()
		for _, m := range markdownTags.FindAllStringSubmatchIndex(page, -1) {
			if tag := strings.ToLower(page[m[4]:m[5]]); !allowedMarkdownTags[tag] {
				t.Errorf("%s: renders to the tag <%s> in %q", format, tag, page[max(0, m[0]-200):min(len(page), m[1]+40)])
				break
			}
		}
	case strings.HasSuffix(format, "html"):
		if strings.Contains(out, "<img") || strings.Contains(out, "</i>") {
			t.Errorf("%s: a tag from outside is written raw", format)
		}
	case strings.HasSuffix(format, "junit"):
		var doc junitDoc
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s: not valid XML: %v", format, err)
		}
	case strings.HasSuffix(format, "json"):
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s: not valid JSON: %v", format, err)
		}
	case strings.HasSuffix(format, "yaml"):
		var doc any
		if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s: not valid YAML: %v", format, err)
		}
	}
	if p := hostiletext.Problem(out); p != "" {
		t.Errorf("%s: %s", format, p)
	}
	if strings.Contains(out, "\r") {
		t.Errorf("%s: a raw carriage return", format)
	}
}

// Every format of every output prints every string of a report, a diff, the queue list and the
// target list inert, whatever it holds: each by its own rules (a terminal, a CI log, Markdown,
// HTML, XML, JSON, YAML, kubectl's templates).
func TestEveryFormatKeepsOutsideTextInert(t *testing.T) {
	r := attacked(fixtureReport(t))
	if !strings.HasPrefix(r.Backlog[0].Queue, attack) || r.Suppressions == nil || len(r.Suppressions.Expired) == 0 {
		t.Fatalf("the report is not filled with the attack: %+v", r.Backlog[0])
	}
	d := attacked(diff.Compare(fixtureReport(t), hostileReport(t), "before.json", "after.json"))
	queues := attacked(view.QueueList{Items: []view.Queue{{}}, Errors: []view.TargetError{{}}})
	targets := attacked(view.TargetList{Items: []target.Target{{}}, Failed: []view.TargetError{{}}})
	// The kinds are the plugin's own, which -o name reads.
	r.APIVersion, r.Kind = view.APIVersion, "Report"
	d.APIVersion, d.Kind = view.APIVersion, "Diff"
	queues.APIVersion, queues.Kind = view.APIVersion, "QueueList"
	targets.APIVersion, targets.Kind = view.APIVersion, "TargetList"
	templates := []string{"jsonpath={@}", "jsonpath-as-json={@}", "go-template={{.}}"}
	for _, c := range []struct {
		name    string
		v       any
		formats []string
	}{
		{"report", r, append([]string{"", "text", "markdown", "html", "junit", "github", "json", "yaml"}, templates...)},
		{"diff", d, append([]string{"text", "markdown", "json", "yaml"}, templates...)},
		{"queues", queues, append([]string{"", "wide", "json", "yaml", "name", "custom-columns=T:.target,Q:.queue,R:.reason"}, templates...)},
		{"targets", targets, append([]string{"", "wide", "json", "yaml", "name", "custom-columns=T:.target,E:.path"}, templates...)},
	} {
		for _, format := range c.formats {
			var b bytes.Buffer
			if err := Write(&b, format, c.v); err != nil {
				t.Errorf("%s -o %s: %v", c.name, format, err)
				continue
			}
			checkFormat(t, c.name+" -o "+format, b.String())
		}
	}
}
