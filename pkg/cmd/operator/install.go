package operator

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/install"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
)

// DefaultNamespace is where install and uninstall work when -n is not given.
const DefaultNamespace = "ctrldiag-system"

// InstallOptions holds the flag values of `operator install` and `operator uninstall`.
type InstallOptions struct {
	g           *cli.GlobalFlags
	Name        string
	Image       string
	Scenario    string
	Workers     int
	Insecure    bool // plain HTTP metrics instead of the default HTTPS with authn/authz
	MemoryLimit string
	DryRun      string
	Output      string

	install install.Options
	genericiooptions.IOStreams
}

func newInstallCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &InstallOptions{g: g, IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the reference operator: CRD, Namespace, RBAC, Deployment and metrics Service",
		Long: `Apply the reference operator's manifests with server-side apply (idempotent): the Workload
CRD, the Namespace (-n, default ` + DefaultNamespace + `), a ServiceAccount, least-privilege RBAC, a
metrics-reader ClusterRole for scrapers, a Deployment running ` + "`kubectl-ctrldiag operator run`" + ` and
the <name>-metrics-service Service (label control-plane: controller-manager). Metrics are
served on HTTPS :8443 with TokenReview/SubjectAccessReview unless --insecure-metrics.
With --dry-run=client the manifests are printed (-o yaml|json) instead.`,
		Example: `  kubectl ctrldiag operator install --scenario slow
  kubectl ctrldiag operator install --dry-run=client -o yaml > operator.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.RunInstall(cmd.Context())
		},
	}
	o.addFlags(cmd, true)
	return cmd
}

func newUninstallCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &InstallOptions{g: g, IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Delete everything `operator install` created, including the CRD and all Workloads",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.RunUninstall(cmd.Context())
		},
	}
	o.addFlags(cmd, false)
	return cmd
}

func (o *InstallOptions) addFlags(cmd *cobra.Command, forInstall bool) {
	f := cmd.Flags()
	f.StringVar(&o.Name, "name", "ctrldiag-operator", "Prefix of the names of the installed objects")
	if !forInstall {
		return
	}
	f.StringVar(&o.Image, "image", install.DefaultImage(), "Container image that holds kubectl-ctrldiag")
	f.StringVar(&o.Scenario, "scenario", "", "Scenario the installed operator runs (default: none)")
	f.IntVar(&o.Workers, "workers", 2, "Concurrent reconciles of the installed operator")
	f.BoolVar(&o.Insecure, "insecure-metrics", false, "Serve /metrics on plain HTTP :8080 instead of HTTPS :8443 with authentication")
	f.StringVar(&o.MemoryLimit, "memory-limit", "256Mi", "Memory limit of the operator container")
	f.StringVar(&o.DryRun, "dry-run", "none", `"client" prints the manifests instead of applying them`)
	f.StringVarP(&o.Output, "output", "o", "yaml", "Format of --dry-run=client output: yaml or json")
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(installFormats...))
	cli.CompleteFlag(cmd, "scenario", cli.CompleteWords(installableScenarios()...))
}

// notInstallable says why the installed operator cannot run sc and how to run it instead,
// or "" when it can: its namespaced Role may not create the cluster-wide objects some
// scenarios set up.
func notInstallable(sc scenario.Scenario) (why, run string) {
	switch {
	case sc.FlowControl != nil:
		return "sets up API Priority and Fairness", "kubectl ctrldiag operator run -n NAMESPACE --scenario " + sc.Name +
			" --as system:serviceaccount:NAMESPACE:NAME"
	case sc.Webhook != nil:
		return "registers an admission webhook (a ValidatingWebhookConfiguration)", "kubectl ctrldiag operator run -n NAMESPACE --scenario " +
			sc.Name + " --webhook-bind-address HOST:PORT"
	}
	return "", ""
}

// installableScenarios are the scenarios `operator install --scenario` accepts, for completion.
func installableScenarios() []string {
	var names []string
	for _, name := range scenario.Names() {
		sc, err := scenario.Get(name)
		if why, _ := notInstallable(sc); err == nil && why == "" {
			names = append(names, name)
		}
	}
	return names
}

// installFormats are the values of install's -o.
var installFormats = []string{"yaml", "json"}

// Complete validates the flags and builds the install options.
func (o *InstallOptions) Complete() error {
	if o.g.AllNamespaces {
		return cli.UsageError("the operator is installed in one namespace: use -n NAMESPACE instead of -A")
	}
	ns := DefaultNamespace
	if o.g.ConfigFlags.Namespace != nil && *o.g.ConfigFlags.Namespace != "" {
		ns = *o.g.ConfigFlags.Namespace
	}
	if o.DryRun != "none" && o.DryRun != "client" {
		return cli.UsageError("--dry-run must be none or client, got %q", o.DryRun)
	}
	if err := printer.ValidateFormat(o.Output, installFormats...); err != nil {
		return cli.UsageError("%v", err)
	}
	if o.Scenario != "" {
		sc, err := scenario.Get(o.Scenario)
		if err != nil {
			return cli.UsageError("%v", err)
		}
		if why, run := notInstallable(sc); why != "" {
			return cli.UsageError("scenario %s %s, which the installed operator may not: run it with `%s`", sc.Name, why, run)
		}
	}
	limit := resource.MustParse("256Mi")
	if o.MemoryLimit != "" {
		q, err := resource.ParseQuantity(o.MemoryLimit)
		if err != nil {
			return cli.UsageError("--memory-limit %q is not a quantity such as 256Mi", o.MemoryLimit)
		}
		limit = q
	}
	o.install = install.Options{Namespace: ns, Name: o.Name, Image: o.Image, Scenario: o.Scenario,
		Workers: o.Workers, MetricsSecure: !o.Insecure, MemoryLimit: limit}
	return nil
}

// RunInstall prints or applies the manifests.
func (o *InstallOptions) RunInstall(ctx context.Context) error {
	objs, err := install.Objects(o.install)
	if err != nil {
		return err
	}
	if o.DryRun == "client" {
		return printObjects(o.Out, o.Output, objs)
	}
	c, err := o.client()
	if err != nil {
		return err
	}
	return install.Apply(ctx, c, objs, o.Out)
}

// RunUninstall deletes what install created.
func (o *InstallOptions) RunUninstall(ctx context.Context) error {
	objs, err := install.Objects(o.install)
	if err != nil {
		return err
	}
	c, err := o.client()
	if err != nil {
		return err
	}
	return install.Delete(ctx, c, objs, o.Out)
}

func (o *InstallOptions) client() (client.Client, error) {
	cfg, err := o.g.ConfigFlags.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("load the kubeconfig (set --kubeconfig or KUBECONFIG): %w", err)
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		return nil, fmt.Errorf("connect to the API server: %w", err)
	}
	return c, nil
}

// printObjects writes objs as a multi-document YAML stream or as a JSON v1 List.
func printObjects(w io.Writer, format string, objs []*unstructured.Unstructured) error {
	if format == "json" {
		items := make([]map[string]any, 0, len(objs))
		for _, u := range objs {
			items = append(items, u.Object)
		}
		return printer.Write(w, "json", map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, false)
	}
	for i, u := range objs {
		b, err := yaml.Marshal(u.Object)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
