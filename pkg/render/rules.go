package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/alerts"
)

// Rules writes the rules of s in one of alerts.Formats (`kubectl ctrldiag rules`): a plain
// Prometheus rule file (YAML, the default) or a PrometheusRule named by meta, each after the
// rules' header comment; the rule file as JSON; or the table of alerts and of the checks not
// exported.
func Rules(w io.Writer, format string, s alerts.Set, meta alerts.Meta) error {
	switch format {
	case "", "rules":
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
		tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
		for _, r := range alerts.Table(s) {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		return tw.Flush()
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(alerts.Formats, ", "))
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
