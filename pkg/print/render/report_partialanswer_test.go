package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// A report over a partial answer says so under the verdict in every human format, naming the
// missing clusters, and holds it in json; the server's words are escaped. A whole answer says
// nothing of it.
func TestReportPartialAnswer(t *testing.T) {
	r := fixtureReport(t)
	whole := map[string]string{}
	for _, f := range []string{"", "markdown", "html", "github", "json"} {
		var b bytes.Buffer
		if err := Write(&b, f, r); err != nil {
			t.Fatal(err)
		}
		whole[f] = b.String()
		if strings.Contains(b.String(), "artial") && f != "html" || strings.Contains(b.String(), `id="partial"`) {
			t.Errorf("-o %q of a whole answer speaks of a partial one:\n%s", f, b.String())
		}
	}
	r.Partial = &view.Partial{MissingClusters: []string{"b"},
		Warnings: []string{"fetch series for {cluster=\"b\"}: rpc error \x1b[31mdown", "second"}}
	for f, want := range map[string]string{
		"":         `Partial: Prometheus answered partially, some of its stores did not answer`,
		"markdown": `**Partial: Prometheus answered partially`,
		"html":     `<p class="partial" id="partial">Partial: Prometheus answered partially`,
		"github":   `::warning title=ctrldiag partial answer::Partial: Prometheus answered partially`,
	} {
		var b bytes.Buffer
		if err := Write(&b, f, r); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, want) || !strings.Contains(out, "cluster b") || !strings.Contains(out, "not of the whole fleet") ||
			!strings.Contains(out, "and 1 more") {
			t.Errorf("-o %q does not say the answer is partial and which cluster it lacks:\n%s", f, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("-o %q prints the server's words raw", f)
		}
	}
	var b bytes.Buffer
	if err := Write(&b, "json", r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Partial *view.Partial `json:"partial"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Partial == nil || strings.Join(got.Partial.MissingClusters, ",") != "b" || len(got.Partial.Warnings) != 2 {
		t.Errorf("json partial: %+v", got.Partial)
	}
	r.Partial = &view.Partial{Warnings: []string{"store down"}}
	b.Reset()
	if err := Write(&b, "", r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "which clusters cannot be told") {
		t.Errorf("a partial answer whose missing clusters cannot be told:\n%s", b.String())
	}
	r.Partial = &view.Partial{Warnings: []string{`fetch series for {cluster="b", replica="B"}`}, ReplicatedClusters: []string{"b"}, Whole: true}
	b.Reset()
	if err := Write(&b, "", r); err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(flat, "the stores of cluster b that did not answer have replicas that did, no series are missing") ||
		strings.Contains(flat, "not of the whole fleet") || strings.Contains(flat, "may be missing") {
		t.Errorf("a partial answer whose down store's replica answered:\n%s", b.String())
	}
}
