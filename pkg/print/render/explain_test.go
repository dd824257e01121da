package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

func TestFindACheckByCodeOrName(t *testing.T) {
	for _, topic := range []string{"CD208", "cd208", "workers-saturated", " Workers-Saturated "} {
		p, err := Find(topic)
		if err != nil || p.Check == nil {
			t.Fatalf("Find(%q) = %+v, %v", topic, p, err)
		}
		c := p.Check
		if c.Code != "CD208" || c.Check != "workers-saturated" || c.Severity != "warning" {
			t.Errorf("Find(%q): %s %s %s", topic, c.Code, c.Check, c.Severity)
		}
		var names []string
		for _, th := range c.Thresholds {
			names = append(names, th.Name+"="+th.Default)
		}
		if got := strings.Join(names, ","); got != "saturatedQueueWait=1s,risingDepth=10,minEvents=10" {
			t.Errorf("thresholds of CD208: %s", got)
		}
		if first, last := c.Recommendations[0].Kind, c.Recommendations[len(c.Recommendations)-1].Kind; first != "controller-runtime" || last != "default" {
			t.Errorf("recommendations from %s to %s, want controller-runtime first and default last", first, last)
		}
	}
}

// Every check's page names its code, title, explanation, thresholds with their defaults and
// its default recommendation.
func TestEveryCheckPage(t *testing.T) {
	for _, d := range findings.Catalog() {
		p, err := Find(d.Check)
		if err != nil {
			t.Fatalf("Find(%s): %v", d.Check, err)
		}
		var out bytes.Buffer
		if err := WritePage(&out, p); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(out.String()), " ")
		want := []string{d.Code + " " + d.Check + ": " + d.Title, "Severity: " + string(d.Severity),
			strings.Join(strings.Fields(d.Explanation), " "), strings.Join(strings.Fields(d.Recommendation["default"]), " ")}
		for _, th := range p.Check.Thresholds {
			want = append(want, th.Name+"="+th.Default)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("page of %s lacks %q:\n%s", d.Code, w, out.String())
			}
		}
	}
}

func TestThresholdsPageListsEveryThreshold(t *testing.T) {
	p, err := Find("Thresholds")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WritePage(&out, p); err != nil {
		t.Fatal(err)
	}
	for _, d := range findings.ThresholdDocs() {
		if !strings.Contains(out.String(), "\n"+d.Name+": "+d.Default+" ("+d.Unit+")\n") {
			t.Errorf("thresholds page lacks %s %s", d.Name, d.Default)
		}
	}
	if data, ok := p.Data(); !ok || len(data.([]findings.ThresholdDoc)) != len(findings.ThresholdNames()) {
		t.Errorf("Data() = %v, %v", data, ok)
	}
}

// The status page lists every STATUS, in the order of their rank, with the defaults filled in.
func TestStatusPage(t *testing.T) {
	for i, s := range Statuses() {
		if s.Status.Rank() != i {
			t.Errorf("%s is listed at %d but ranks %d: the list misses a status or is out of order", s.Status, i, s.Status.Rank())
		}
	}
	p, err := Find("status")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, "{") || !strings.Contains(p.Text, "stuckAfter (30s)") {
		t.Errorf("status page:\n%s", p.Text)
	}
	if _, ok := p.Data(); ok {
		t.Error("status has data; it is text only")
	}
}

func TestUnknownTopic(t *testing.T) {
	for topic, meant := range map[string]string{"stauts": "status", "CD2088": "CD208", "workers-saturate": "workers-saturated", "banana": ""} {
		_, err := Find(topic)
		var u *UnknownTopicError
		if !errors.As(err, &u) || u.Meant != meant || !u.Usage() {
			t.Errorf("Find(%q) = %v, want an unknown topic meaning %q", topic, err, meant)
		}
	}
	_, err := Find("banana")
	if !strings.Contains(err.Error(), "thresholds") {
		t.Errorf("error without a suggestion does not list the topics: %v", err)
	}
}

// explain knows the words the outputs print: a STATUS value, in any case, gives the status
// page; a threshold's name gives its own line of the thresholds page.
func TestFindStatusValuesAndThresholds(t *testing.T) {
	for _, word := range []string{"SATURATED", "stuck", "Standby"} {
		p, err := Find(word)
		if err != nil || !strings.Contains(p.Text, "STATUS, the column") {
			t.Errorf("Find(%q) = %+v, %v; want the status page", word, p, err)
		}
	}
	p, err := Find("stuckafter")
	if err != nil || len(p.Thresholds) != 1 || p.Thresholds[0].Name != "stuckAfter" {
		t.Errorf("Find(stuckafter) = %+v, %v; want the line of stuckAfter", p, err)
	}
}

func TestTopicsListEveryCheck(t *testing.T) {
	var out bytes.Buffer
	if err := WriteTopics(&out); err != nil {
		t.Fatal(err)
	}
	for _, n := range Names() {
		if !strings.Contains(out.String(), n) {
			t.Errorf("topic list lacks %s", n)
		}
	}
}

// A check's page names the fields its findings' evidence has in -o json.
func TestCheckNamesEvidenceFields(t *testing.T) {
	b, err := json.Marshal(findings.Evidence{Name: "n", Value: "v", Threshold: "t", Observations: 4, Basis: findings.BasisWindow})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fields := EvidenceFields()
	if len(fields) != len(m) {
		t.Fatalf("EvidenceFields %q, -o json has %v", fields, m)
	}
	for _, f := range fields {
		if _, ok := m[f]; !ok {
			t.Errorf("EvidenceFields names %q, which -o json does not have: %v", f, m)
		}
	}
	d, _ := findings.Lookup("workers-saturated")
	text := checkText(checkOf(d))
	if want := "findings[].evidence,\neach {" + strings.Join(fields, ", ") + "}"; !strings.Contains(text, want) {
		t.Errorf("the page lacks %q:\n%s", want, text)
	}
}

// Every page explain prints, and its list of topics, fits 80 columns.
func TestPagesFit80Columns(t *testing.T) {
	var pages []string
	var list bytes.Buffer
	if err := WriteTopics(&list); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, list.String())
	for _, name := range Names() {
		p, err := Find(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var out bytes.Buffer
		if err := WritePage(&out, p); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, out.String())
	}
	for i, page := range pages {
		for _, l := range strings.Split(page, "\n") {
			if len([]rune(l)) > 80 {
				t.Errorf("page %d has a line of %d columns: %q", i, len([]rune(l)), l)
			}
		}
	}
}
