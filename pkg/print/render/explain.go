// This file builds the pages of `kubectl ctrldiag explain`: what a check (a finding's
// code) means and what it is judged against, every threshold with its default, the STATUS
// values of the queue table, and the capacity model in plain words. The checks and the
// thresholds come from pkg/judge/findings, so that the pages say what the report does.

package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Topic names of the pages that are not a check.
const (
	TopicThresholds = "thresholds"
	TopicStatus     = "status"
	TopicCapacity   = "capacity"
)

// Topic is a page explain can print, with a line saying what it holds.
type Topic struct {
	Name, Summary string
}

// Topics are the pages that are not a check, in the order explain lists them.
func Topics() []Topic {
	return []Topic{
		{TopicStatus, "the STATUS values of the queue table, worst first, and the checks that set each"},
		{TopicThresholds, "every threshold the checks are judged against: default, unit and meaning"},
		{TopicCapacity, "how report sizes the workers a queue needs"},
	}
}

// Names are every word explain takes: the topics, then every check's code and name.
func Names() []string {
	var out []string
	for _, t := range Topics() {
		out = append(out, t.Name)
	}
	for _, d := range findings.Catalog() {
		out = append(out, d.Code, d.Check)
	}
	for _, st := range Statuses() {
		out = append(out, string(st.Status))
	}
	for _, th := range findings.ThresholdDocs() {
		out = append(out, th.Name)
	}
	return out
}

// UnknownTopicError is a topic explain has no page for; Meant is the closest one, or "".
type UnknownTopicError struct {
	Topic, Meant string
}

func (e *UnknownTopicError) Error() string {
	msg := fmt.Sprintf("no topic %q", e.Topic)
	if e.Meant != "" {
		return msg + fmt.Sprintf(" (did you mean %s?)", e.Meant)
	}
	return msg + "; topics: " + strings.Join(topicNames(), ", ") + ", a check's code or name (kubectl ctrldiag explain lists them), a STATUS value or a threshold's name"
}

// Usage marks the error as one in the command line.
func (e *UnknownTopicError) Usage() bool { return true }

func topicNames() []string {
	var out []string
	for _, t := range Topics() {
		out = append(out, t.Name)
	}
	return out
}

// Page is what explain prints for one topic: exactly one of its fields is set.
type Page struct {
	Check      *Check
	Thresholds []findings.ThresholdDoc
	Text       string // status and capacity: text only
}

// Find returns the page of a topic: a topic name, a check's code or name, a STATUS value or a
// threshold's name, in any case.
func Find(topic string) (Page, error) {
	t := strings.ToLower(strings.TrimSpace(topic))
	switch t {
	case TopicThresholds:
		return Page{Thresholds: findings.ThresholdDocs()}, nil
	case TopicStatus:
		return Page{Text: statusText()}, nil
	case TopicCapacity:
		return Page{Text: paragraphs(capacityText, 80)}, nil
	}
	for _, d := range findings.Catalog() {
		if strings.EqualFold(d.Code, t) || strings.EqualFold(d.Check, t) {
			c := checkOf(d)
			return Page{Check: &c}, nil
		}
	}
	// The words the outputs print: a STATUS value is on the status page, a threshold's name
	// (in a finding's evidence) has its own line of the thresholds page.
	for _, st := range Statuses() {
		if strings.EqualFold(string(st.Status), t) {
			return Page{Text: statusText()}, nil
		}
	}
	for _, th := range findings.ThresholdDocs() {
		if strings.EqualFold(th.Name, t) {
			return Page{Thresholds: []findings.ThresholdDoc{th}}, nil
		}
	}
	return Page{}, &UnknownTopicError{Topic: topic, Meant: findings.Nearest(t, Names())}
}

// WriteTopics prints the list of topics and checks, the page of explain without a topic.
func WriteTopics(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Topics (kubectl ctrldiag explain TOPIC):\n")
	for _, t := range Topics() {
		b.WriteString(hanging(fmt.Sprintf("  %-12s ", t.Name), t.Summary, 80))
	}
	b.WriteString("\nChecks (kubectl ctrldiag explain CODE or NAME; report raises them as findings):\n")
	for _, d := range findings.Catalog() {
		b.WriteString(hanging(fmt.Sprintf("  %-6s %-22s %-9s ", d.Code, d.Check, d.Severity), d.Title, 80))
	}
	var statuses, thresholds []string
	for _, st := range Statuses() {
		statuses = append(statuses, string(st.Status))
	}
	for _, th := range findings.ThresholdDocs() {
		thresholds = append(thresholds, th.Name)
	}
	b.WriteString("\nSTATUS values (kubectl ctrldiag explain VALUE shows the status page):\n")
	b.WriteString(wrapFlush(strings.Join(statuses, ", "), "  ", 78))
	b.WriteString("\nThresholds (kubectl ctrldiag explain NAME shows its line):\n")
	b.WriteString(wrapFlush(strings.Join(thresholds, ", "), "  ", 78))
	return writeText(w, b.String())
}

// WritePage prints a page as text.
func WritePage(w io.Writer, p Page) error {
	switch {
	case p.Check != nil:
		return writeText(w, checkText(*p.Check))
	case p.Thresholds != nil:
		return writeText(w, thresholdsText(p.Thresholds))
	}
	return writeText(w, p.Text)
}

// Data is the page as data for -o json|yaml, or false for the pages that are text only.
func (p Page) Data() (any, bool) {
	switch {
	case p.Check != nil:
		return *p.Check, true
	case p.Thresholds != nil:
		return p.Thresholds, true
	}
	return nil, false
}

// writeText prints text line by line through printable.String, as every view does.
func writeText(w io.Writer, text string) error {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(printable.String(line))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrapFlush breaks text into lines of at most width characters, each starting with indent.
func wrapFlush(text, indent string, width int) string {
	return printable.WrapLines(text, indent, indent, width)
}

// paragraphs wraps each paragraph of text (lines up to a blank one) to width.
func paragraphs(text string, width int) string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		out = append(out, wrapFlush(p, "", width))
	}
	return strings.Join(out, "\n")
}

// hanging is text wrapped to width after prefix, its further lines indented under the
// text's first: a column of a list whose last column may be long.
func hanging(prefix, text string, width int) string {
	return printable.WrapHanging(prefix, text, width)
}

// kindOrder is the order recommendations are printed in; other kinds follow, sorted.
var kindOrder = []string{"controller-runtime", "kube-controller-manager", "kube-apiserver", "client-go", "knob", "default"}

func kindRank(k string) int {
	if i := slices.Index(kindOrder, k); i >= 0 {
		return i
	}
	return len(kindOrder)
}
