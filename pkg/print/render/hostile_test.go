package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/hostiletext"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/diff"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// hostile is a label value that attacks terminals and CI logs.
const hostile = hostiletext.Name

// hostileReport is a report built from a page whose queue and controller are named hostile,
// a target whose error says hostile, and objects whose condition message is hostile.
func hostileReport(t *testing.T) view.Report {
	t.Helper()
	page := func(depth, longest, unfinished, done float64) *parse.Page {
		text := strings.ReplaceAll(stuckText(depth, longest, unfinished, done), `"reconciler"`, `"`+strings.ReplaceAll(hostile, "\n", `\n`)+`"`)
		p, err := parse.Parse("hostile", strings.NewReader(text), health.Wanted)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := page(120, 40, 41, 0), page(138, 50, 55, 10)
	stuck := pod("stuck-system", "stuck-operator-5c6d7-xyz12", 3, "OOMKilled", "64Mi", "128Mi")
	return report.Build(report.Input{
		Scope: "all namespaces",
		Targets: source.Model([]source.Result{
			{Target: target.Target{Kind: target.KindPod, Namespace: "stuck-system", Name: stuck.Name, Port: 8080, Container: "manager"},
				Window: 10 * time.Second, Pod: stuck, Samples: []source.Sample{
					{Families: a.Families, Time: fixtureNow.Add(-10 * time.Second)}, {Families: b.Families, Time: fixtureNow}}},
			{Target: target.Target{Kind: target.KindPod, Namespace: "broken-system", Name: "broken-operator-0", Port: 8443, Scheme: "https"},
				Err: errors.New("500 from the endpoint: " + hostile)},
		}),
		Pods: []report.PodInput{{Pod: stuck, Scraped: true}},
		Objects: &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true},
			Controllers: []string{"stuck-system/stuck-operator-5c6d7-xyz12:8080 " + hostile}, Total: 1, Failed: 1,
			Reasons: []objects.Reason{{Condition: "Ready=False", Reason: "Hostile", Count: 1, Objects: []string{"shop/" + hostile}, Message: hostile}}}}},
		Thresholds: findings.DefaultThresholds(),
		Now:        fixtureNow,
	})
}

// assertInert fails when out holds what a terminal or CI runner would act on, or does not
// show the hostile name escaped.
func assertInert(t *testing.T, format, out string) {
	t.Helper()
	if p := hostiletext.Problem(out); p != "" {
		t.Errorf("%s: %s in the output:\n%q", format, p, out)
	}
	shown := `pwned\x1b[2J`
	if strings.Contains(format, "markdown") {
		shown = md(shown) // Markdown shows the escape as text with its own escapes
	}
	if !strings.Contains(out, shown) {
		t.Errorf("%s: the hostile name is not shown escaped:\n%s", format, out)
	}
}

// Label values, error messages and condition messages from outside are printed with their
// control characters escaped in every format, and the JUnit output stays valid XML.
func TestHostileTextIsInertInEveryFormat(t *testing.T) {
	r := hostileReport(t)
	if len(r.Backlog) == 0 || !strings.Contains(r.Backlog[0].Queue, "\x1b") {
		t.Fatalf("the report does not carry the hostile queue name: %+v", r.Backlog)
	}
	for _, format := range []string{"", "text", "markdown", "html", "junit"} {
		var b bytes.Buffer
		if err := Write(&b, format, r); err != nil {
			t.Fatal(err)
		}
		assertInert(t, "report -o "+format, b.String())
		if format == "junit" {
			var doc junitDoc
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Errorf("junit is not valid XML: %v", err)
			}
		}
	}
	// -o github escapes in its own way, which the Actions runner reads back.
	var gh bytes.Buffer
	if err := Write(&gh, "github", r); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(gh.String(), "\n") {
		if strings.HasPrefix(line, "::") && !strings.HasPrefix(line, "::error title=") && !strings.HasPrefix(line, "::warning title=") {
			t.Errorf("github: a line starts another workflow command: %q", line)
		}
	}

	d := diff.Compare(r, hostileReport(t), "before-"+hostile, "after.json")
	for _, format := range []string{"text", "markdown"} {
		var b bytes.Buffer
		if err := Write(&b, format, d); err != nil {
			t.Fatal(err)
		}
		assertInert(t, "diff -o "+format, b.String())
	}

	ql := view.QueueList{Items: []view.Queue{{Target: "ns/op-0:8080", Queue: hostile, Status: "OK", Reason: hostile}},
		Errors: []view.TargetError{{Target: "ns/op-1:8080", Error: hostile}}}
	tl := view.TargetList{Items: []target.Target{{Kind: target.KindPod, Namespace: "ns", Name: "op-0", Port: 8080, Path: "/" + hostile, ViaReason: hostile}},
		Failed: []view.TargetError{{Target: "ns/op-1:8080", Error: hostile}}}
	for _, wide := range []bool{false, true} {
		var q, tg bytes.Buffer
		if err := QueueTable(&q, ql, wide, 0); err != nil {
			t.Fatal(err)
		}
		assertInert(t, "queues table", q.String())
		if err := TargetTable(&tg, tl, wide); err != nil {
			t.Fatal(err)
		}
		assertInert(t, "targets table", tg.String())
	}
}

// YAML (and JSON) output escapes the control characters itself: the data stays exact. A
// string whose only control characters are newlines is no block of lines in YAML either.
func TestYAMLAndJSONEscapeControlCharacters(t *testing.T) {
	l := view.QueueList{Items: []view.Queue{{Target: "ns/op-0:8080", Queue: hostile, Status: "OK"},
		{Target: "ns/op-0:8080", Queue: "ci\n::error file=x::pwned\n::set-output name=x::y", Status: "OK"}}}
	var asJSON, asYAML bytes.Buffer
	if err := Write(&asJSON, "json", l); err != nil {
		t.Fatal(err)
	}
	if err := Write(&asYAML, "yaml", l); err != nil {
		t.Fatal(err)
	}
	var fromJSON, fromYAML any
	if err := json.Unmarshal(asJSON.Bytes(), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(asYAML.Bytes(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON, fromYAML) {
		t.Errorf("YAML and JSON hold different data:\n%v\n%v", fromJSON, fromYAML)
	}
	for _, format := range []string{"yaml", "json"} {
		var b bytes.Buffer
		if err := Write(&b, format, l); err != nil {
			t.Fatal(err)
		}
		if p := hostiletext.Problem(b.String()); p != "" {
			t.Errorf("%s: %s:\n%q", format, p, b.String())
		}
	}
}
