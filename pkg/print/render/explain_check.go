package render

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Check is the page of one check.
type Check struct {
	Code        string                  `json:"code"`
	Check       string                  `json:"check"`
	Severity    string                  `json:"severity"`
	Title       string                  `json:"title"`
	Explanation string                  `json:"explanation"`
	Thresholds  []findings.ThresholdDoc `json:"thresholds"`
	// EvidenceFields are the fields of each piece of a finding's evidence in -o json.
	EvidenceFields []string `json:"evidenceFields"`
	// Recommendations are by kind of controller: controller-runtime, kube-controller-manager,
	// kube-apiserver, client-go, knob (a recognised well-known controller, {knob} standing for
	// its flag) and default (any other).
	Recommendations []Recommendation `json:"recommendations"`
}

// Recommendation is what to change, for one kind of controller.
type Recommendation struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

func checkOf(d findings.Definition) Check {
	docs := map[string]findings.ThresholdDoc{}
	for _, td := range findings.ThresholdDocs() {
		docs[td.Name] = td
	}
	c := Check{Code: d.Code, Check: d.Check, Severity: string(d.Severity), Title: d.Title,
		Explanation: d.Explanation, Thresholds: []findings.ThresholdDoc{}, EvidenceFields: EvidenceFields()}
	for _, n := range d.Thresholds {
		c.Thresholds = append(c.Thresholds, docs[n])
	}
	for k, v := range d.Recommendation {
		c.Recommendations = append(c.Recommendations, Recommendation{Kind: k, Text: v})
	}
	slices.SortFunc(c.Recommendations, func(a, b Recommendation) int {
		if ra, rb := kindRank(a.Kind), kindRank(b.Kind); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return c
}

// kindLabels say who a recommendation is for.
var kindLabels = map[string]string{
	"knob":    "a recognised well-known controller ({knob} is its flag)",
	"default": "any other controller",
}

func checkText(c Check) string {
	var b strings.Builder
	b.WriteString(hanging(c.Code+" "+c.Check+": ", c.Title, 80))
	fmt.Fprintf(&b, "Severity: %s\n\n", c.Severity)
	b.WriteString(wrapFlush(c.Explanation, "", 80))
	fmt.Fprintf(&b, "\nEvidence (report -o json: findings[].evidence,\neach {%s}):\n", strings.Join(EvidenceFields(), ", "))
	b.WriteString("the numbers a finding of this check rests on, with the threshold each was held\n" +
		"against where there is one; the finding's summary says them in a sentence. A\n" +
		"quantile says what it rests on: how many waits or items (observations), over the\n" +
		"window or since the process started (basis).\n")
	b.WriteString("\nThresholds (--threshold name=value; all: kubectl ctrldiag explain thresholds):\n")
	if len(c.Thresholds) == 0 {
		b.WriteString("  none: the check is raised by what it sees, not by a threshold\n")
	}
	for _, t := range c.Thresholds {
		fmt.Fprintf(&b, "  %s=%s  (%s)\n", t.Name, t.Default, t.Unit)
		b.WriteString(wrapFlush(t.Meaning, "      ", 80))
	}
	b.WriteString("\nWhat to change:\n")
	for _, r := range c.Recommendations {
		label := r.Kind
		if l, ok := kindLabels[r.Kind]; ok {
			label = l
		}
		fmt.Fprintf(&b, "  %s:\n", label)
		b.WriteString(wrapFlush(r.Text, "    ", 80))
	}
	return b.String()
}

func thresholdsText(docs []findings.ThresholdDoc) string {
	var b strings.Builder
	b.WriteString(wrapFlush("Thresholds decide when a check raises a finding. Override one with --threshold name=value "+
		"(repeatable), or several with --thresholds FILE, a YAML file of name: value lines "+
		"(e.g. stuckAfter: 10m). Durations must be more than 0 (30s, 5m), counts and rates 0 or "+
		"more, ratios from 0 to 1.", "", 80) + "\n")
	b.WriteString("NAME: DEFAULT (UNIT)\n    meaning\n")
	for _, d := range docs {
		// Each threshold's meaning under its name and default: a table of four columns
		// cannot hold the meanings in 80.
		fmt.Fprintf(&b, "\n%s: %s (%s)\n", d.Name, d.Default, d.Unit)
		b.WriteString(wrapFlush(d.Meaning, "    ", 80))
	}
	return b.String()
}

// EvidenceFields are the fields of one piece of a finding's evidence in -o json, read from
// findings.Evidence so that explain names what the output holds.
func EvidenceFields() []string {
	t := reflect.TypeOf(findings.Evidence{})
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
