// This file implements `kubectl ctrldiag rules`: the checks of report as Prometheus
// alerting and recording rules, with the same thresholds, so that the alert that wakes
// someone up and the report they then run agree. Flags only: pkg/judge/alerts makes the rules.

package cmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/alerts"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
)

const rulesLong = `Print Prometheus rules that raise, as alerts, the findings report raises: for every check
that can be judged over the metrics a Prometheus server scrapes, an alerting rule with the
report's thresholds (--threshold, --thresholds) and logic, and recording rules for the figures
the alerts share (worker saturation, reconcile error ratio, failing reconciles/s, mean queue
wait, depth by priority, ...). --window is the window judged, as with report --prometheus:
rates and increases run over it. The alerts' for: is each check's own duration (--for
CHECK=DURATION to change one); --matchers narrows the series (PromQL label matchers).

Every alert has the labels severity, check and code, and the annotations summary,
description (naming the namespace, pod and queue or controller) and runbook_url (the check's
section of docs/alerts.md; --runbook-base-url for your own copy).

Checks that need the cluster rather than metrics are exported over kube-state-metrics where
its series say the same (memory-pressure, restarts), or listed as not exported, with the
reason, in the comment block the rule file starts with and in -o table.

Outputs: -o yaml (a Prometheus rule file, the default), -o json (the same as JSON), kubectl's
jsonpath= and go-template= over it (its groups), -o prometheusrule (a monitoring.coreos.com/v1
PrometheusRule: --name, -n, and --label for the labels its ruleSelector matches), -o table
(every alert, its check and for:, and the checks not exported).

No cluster is read. Exit codes: 0 printed; 2 invalid flags.`

const rulesExample = `  # A rule file for a plain Prometheus (rule_files: in prometheus.yml)
  kubectl ctrldiag rules > ctrldiag-rules.yaml
  promtool check rules ctrldiag-rules.yaml

  # For the Prometheus Operator (kube-prometheus-stack selects release=NAME)
  kubectl ctrldiag rules -o prometheusrule -n monitoring \
    --label release=kube-prometheus-stack | kubectl apply -f -

  # One namespace only, stuck after 1m, saturation alerts after 30m
  kubectl ctrldiag rules --matchers '{namespace="my-operator-system"}' \
    --threshold stuckAfter=1m --for workers-saturated=30m

  # The names of the alerts, one a line
  kubectl ctrldiag rules \
    -o jsonpath='{range .groups[*].rules[*]}{.alert}{"\n"}{end}' | grep .`

// rulesFormats are the values of -o: the outputs of pkg/judge/alerts, and kubectl's templates over the
// rule file.
var rulesFormats = slices.Concat(alerts.Formats, printer.TemplateFormats)

// oldRules is the old name of -o yaml, kept for one release.
const oldRules = "rules"

// RulesOptions holds the flag values of the rules command.
type RulesOptions struct {
	g          *cli.GlobalFlags
	Thresholds ThresholdFlags
	Output     string
	NoHeaders  bool
	Window     time.Duration
	For        []string
	Matchers   string
	// oldSelector is --selector, the deprecated name of --matchers.
	oldSelector string
	RunbookURL  string
	Labels      []string
	Name        string

	opts   alerts.Options
	meta   alerts.Meta
	format string
	genericiooptions.IOStreams
}

// NewRulesCmd returns the rules command.
func NewRulesCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &RulesOptions{g: g, IOStreams: streams}
	cmd := &cobra.Command{
		Use:     "rules [flags]",
		Short:   "Print Prometheus alerting rules that agree with the findings",
		Long:    rulesLong,
		Example: rulesExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run()
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.Output, "output", "o", "yaml", "Output format: yaml (a Prometheus rule file), json, prometheusrule, table, jsonpath=TEMPLATE, go-template=TEMPLATE (and their -file= forms, as kubectl)")
	f.BoolVar(&o.NoHeaders, "no-headers", false, "Print -o table without its header line (as kubectl, the other outputs have none to leave out)")
	o.Thresholds.AddFlags(f)
	f.DurationVar(&o.Window, "window", alerts.DefaultWindow, "The window judged: every rate and increase runs over it (as report's --window with --prometheus)")
	f.StringArrayVar(&o.For, "for", nil, "Set the for: of a check's alerts, CHECK=DURATION (e.g. workers-saturated=30m; repeatable)")
	f.StringVar(&o.Matchers, "matchers", "", `PromQL label matchers added to every controller series, e.g. '{namespace="my-operator-system"}'`)
	// --selector was this flag's name, though -l/--selector is a label selector everywhere
	// else: kept, hidden, for one release.
	// (cobra's MarkDeprecated would print its warning on stdout, into the rule file.)
	f.StringVar(&o.oldSelector, "selector", "", "Old name of --matchers")
	_ = f.MarkHidden("selector")
	f.StringVar(&o.RunbookURL, "runbook-base-url", alerts.DefaultRunbookBaseURL, "Base of every runbook_url, followed by #<code>-<check>")
	f.StringArrayVar(&o.Labels, "label", nil, "A label of the PrometheusRule, key=value (repeatable; what the Prometheus' ruleSelector matches)")
	f.StringVar(&o.Name, "name", "ctrldiag", "Name of the PrometheusRule")
	o.Thresholds.RegisterCompletions(cmd)
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(rulesFormats...))
	cli.CompleteFlag(cmd, "for", cli.CompleteKeys(alerts.Checks()...))
	return cmd
}

// Complete turns the flags into the options of pkg/judge/alerts, or a usage error.
func (o *RulesOptions) Complete() error {
	if o.Output == oldRules {
		fmt.Fprintln(o.ErrOut, "rules: -o rules is deprecated and goes in the next release: use -o yaml (the same rule file), the default")
		o.Output = "yaml"
	}
	format, err := printer.Prepare(o.Output, rulesFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	o.format = format
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	if o.oldSelector != "" {
		if o.Matchers != "" {
			return cli.UsageError("--selector is the old name of --matchers: give --matchers only")
		}
		fmt.Fprintln(o.ErrOut, "rules: --selector is deprecated and goes in the next release: use --matchers (the same PromQL label matchers)")
		o.Matchers = o.oldSelector
	}
	o.opts = alerts.Options{Thresholds: th, Window: o.Window, RunbookBaseURL: o.RunbookURL, For: map[string]time.Duration{}}
	if o.opts.Selector, err = alerts.ParseSelector(o.Matchers); err != nil {
		return cli.UsageError("--%v (PromQL label matchers, e.g. '{namespace=\"ops\"}')", err)
	}
	for _, kv := range o.For {
		check, value, ok := strings.Cut(kv, "=")
		d, perr := time.ParseDuration(value)
		if !ok || perr != nil {
			return cli.UsageError("--for %q: use CHECK=DURATION, e.g. workers-saturated=30m", kv)
		}
		o.opts.For[check] = d
	}
	o.meta = alerts.Meta{Name: o.Name, Labels: map[string]string{}}
	if o.g != nil && o.g.ConfigFlags != nil && o.g.ConfigFlags.Namespace != nil {
		o.meta.Namespace = *o.g.ConfigFlags.Namespace
	}
	for _, kv := range o.Labels {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cli.UsageError("--label %q: use key=value", kv)
		}
		o.meta.Labels[k] = v
	}
	if len(o.meta.Labels) == 0 {
		o.meta.Labels = nil
	}
	if o.Output != "prometheusrule" && (len(o.Labels) > 0 || o.meta.Namespace != "") {
		fmt.Fprintln(o.ErrOut, "rules: --label and -n name the PrometheusRule; they apply to -o prometheusrule only")
	}
	return nil
}

// Run builds the rules and prints them.
func (o *RulesOptions) Run() error {
	s, err := alerts.Build(o.opts)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	if o.format == "table" {
		return render.RulesTable(o.Out, s, o.NoHeaders)
	}
	return render.Rules(o.Out, o.format, s, o.meta)
}
