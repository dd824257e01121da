// This file implements `kubectl ctrldiag targets`: what discovery finds, how each target
// would be reached and why it was picked, without scraping anything.

package cmd

import (
	"context"
	"slices"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

const targetsLong = `Show the metrics endpoints that queues and report would scrape, how each would be reached
(the API server's proxy, a port-forward, or the API server itself) and why it was picked,
without scraping anything.

Where it looks, in a namespace (-n) or all of them (-A): the pods you name (pod/NAME, NAME,
deploy/NAME, svc/NAME); otherwise pods annotated prometheus.io/scrape=true, container ports
named metrics, http-metrics, https, https-metrics or http-prom (Flux's), external-dns
pods (its --metrics-address, default 7979), the kube-controller-manager and kube-scheduler
pods of kubeadm clusters, pods behind a kubebuilder *-metrics-service, and
what the Prometheus Operator's ServiceMonitors and PodMonitors select (what they configure
wins). --include-apiserver adds the API server's own /metrics (on with -A and no -l). Pods
that are not running and ready are listed as skipped. Details: docs/guide/targets.md.

How (--via auto): through the API server's proxy (needs get pods/proxy), unless a metrics
token is set (the proxy drops credentials) or the pod cannot be proxied; then by port-forward
(needs create pods/portforward). A target whose way you may not use is listed as
unreadable, naming the missing permission.`

const targetsExample = `  # What would be scraped in kube-system, and how
  kubectl ctrldiag targets -n kube-system --include-apiserver

  # Everywhere, with why each way was chosen
  kubectl ctrldiag targets -A -o wide

  # The pods of one deployment, reached by port-forward
  kubectl ctrldiag targets -n ops deploy/my-operator --via port-forward`

// TargetsOptions holds the flag values of the targets command.
type TargetsOptions struct {
	Sources SourceFlags
	Output  string
	Args    []string

	// plan is what to read; set by Validate.
	plan   run.Plan
	format string // -o ready to print; set by Validate
	// NoHeaders and SortBy are kubectl's --no-headers and --sort-by.
	NoHeaders bool
	SortBy    string
	globals   *cli.GlobalFlags
	genericiooptions.IOStreams
}

// targetsFormats are the values of -o: "" is the table; kubectl's forms print the items or the
// whole list.
var targetsFormats = slices.Concat([]string{"", "table", "wide", "json", "yaml"}, printer.ItemFormats, printer.TemplateFormats)

// NewTargetsCmd returns the targets command.
func NewTargetsCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &TargetsOptions{globals: g, IOStreams: streams, Sources: SourceDefaults()}
	cmd := &cobra.Command{
		Use:               "targets [TARGET...] [flags]",
		Short:             "Show which metrics endpoints would be scraped, how, and why",
		Long:              targetsLong,
		Example:           targetsExample,
		ValidArgsFunction: cli.CompletePods(g),
		RunE:              runOptions(o),
	}
	o.Sources.AddFlags(cmd.Flags(), false)
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: table, wide, json, yaml, name, jsonpath=TEMPLATE, go-template=TEMPLATE, custom-columns=SPEC (and their -file= forms, as kubectl) (default: table)")
	cmd.Flags().BoolVar(&o.NoHeaders, "no-headers", false, "Print the table (and -o custom-columns) without its header line")
	cmd.Flags().StringVar(&o.SortBy, "sort-by", "", "Order the rows by a JSONPath into each item of -o json, as kubectl (e.g. '.name')")
	o.Sources.RegisterCompletions(cmd)
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(targetsFormats...))
	return cmd
}

// Validate checks the flags.
func (o *TargetsOptions) Validate() error {
	format, err := printer.Prepare(o.Output, targetsFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	o.format = format
	if o.SortBy != "" {
		if err := printer.CheckSortBy(o.SortBy, target.Target{}); err != nil {
			return cli.UsageError("%v", err)
		}
	}
	if len(o.Sources.URLs) > 0 || len(o.Sources.Files) > 0 {
		return cli.UsageError("targets shows what is found in the cluster: --url and --from-file need no discovery")
	}
	spec, err := o.Sources.Spec(o.globals, o.Args)
	if err != nil {
		return err
	}
	o.plan = run.Plan{Spec: spec, Inputs: Inputs(o.globals, o.In, o.ErrOut), Progress: ProgressTo(o.ErrOut)}
	return nil
}

// Complete takes the TARGET arguments.
func (o *TargetsOptions) Complete(args []string) error {
	o.Args = args
	return nil
}

// Run discovers and prints.
func (o *TargetsOptions) Run(ctx context.Context) error {
	res, err := run.Targets(ctx, o.plan)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		cli.Say(o.ErrOut, "warning", w)
	}
	list := res.List
	if (o.Output == "" || o.Output == "wide") && len(list.Items)+len(list.Skipped)+len(list.Failed) == 0 {
		_, err := o.ErrOut.Write([]byte("No metrics endpoints found.\n"))
		return err
	}
	return render.WriteList(o.Out, o.format, list, render.ListOptions{NoHeaders: o.NoHeaders, SortBy: o.SortBy})
}
