package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/alerts"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
)

// Rules writes the rules of s in one of alerts.Formats (`kubectl ctrldiag rules`): a plain
// Prometheus rule file (YAML, the default) or a PrometheusRule named by meta, each after the
// rules' header comment; the rule file as JSON; the table of alerts and of the checks not
// exported; or the rule file through a template of kubectl's (jsonpath=..., go-template=...,
// as Prepare returned it), over the data of -o json.
func Rules(w io.Writer, format string, s alerts.Set, meta alerts.Meta) error {
	if printer.KubectlForm(format) {
		return printer.Write(w, format, s.File, false)
	}
	switch format {
	case "", "yaml", "rules":
		return rulesYAML(w, s, s.File)
	case "prometheusrule":
		return rulesYAML(w, s, alerts.NewPrometheusRule(s, meta))
	case "json":
		b, err := json.MarshalIndent(s.File, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "table":
		return RulesTable(w, s, false)
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(alerts.Formats, ", "))
}

// RulesTable writes -o table of the rules of s: every alert, then the checks not exported;
// without its header line when noHeaders (--no-headers).
func RulesTable(w io.Writer, s alerts.Set, noHeaders bool) error {
	rows := alerts.Table(s)
	if noHeaders {
		rows = rows[1:]
	}
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// rulesYAML writes v, keyed by its yaml tags in the order of its fields as Prometheus' own
// rule files are, after the header comment.
func rulesYAML(w io.Writer, s alerts.Set, v any) error {
	var buf bytes.Buffer
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if _, err := io.WriteString(w, alerts.Header(s)); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
