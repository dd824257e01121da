// Package cmd wires the kubectl-ctrldiag command tree: the root command with the shared
// kubeconfig flags, and one sub-package per verb. Commands only turn flags into a validated
// configuration and call the engine packages under pkg/, which know nothing of cobra.
package cmd

import (
	"flag"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/version"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

const rootLong = `kubectl ctrldiag tells whether Kubernetes controllers keep up, and if not, why and what
to change. It finds controller pods, scrapes their Prometheus /metrics through the API
server's proxy or a port-forward, reads the client-go workqueue and controller-runtime
metrics, measures cache sync lag, and prints tables and concrete recommendations.`

// NewRootCmd builds the whole command tree writing to streams.
func NewRootCmd(streams genericiooptions.IOStreams) *cobra.Command {
	g := &globals.Flags{ConfigFlags: genericclioptions.NewConfigFlags(true)}
	// --token is the metrics endpoint's bearer token in this plugin (see `queues -h`), so the
	// API-server bearer-token flag of ConfigFlags is not registered; the kubeconfig carries it.
	g.ConfigFlags.BearerToken = nil

	root := &cobra.Command{
		Use:   "kubectl-ctrldiag",
		Short: "Diagnose whether Kubernetes controllers keep up with their work",
		Long:  rootLong,
		Annotations: map[string]string{
			cobra.CommandDisplayNameAnnotation: "kubectl ctrldiag",
		},
		SilenceErrors: true, // main prints the one-line error
		CompletionOptions: cobra.CompletionOptions{
			HiddenDefaultCmd: false,
		},
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)

	flags := root.PersistentFlags()
	g.ConfigFlags.AddFlags(flags)
	flags.BoolVarP(&g.AllNamespaces, "all-namespaces", "A", false, "Look in all namespaces instead of one")
	addKlogVerbosity(root, streams.ErrOut)

	root.AddCommand(version.NewCmd(streams))
	addCommands(root, g, streams)
	return root
}

// addKlogVerbosity exposes klog's -v so that client-go's own logging can be raised for
// debugging. klog writes once, to stderr, through redact.Writer: at high -v client-go logs the
// raw bytes of port-forward streams, bearer tokens included.
func addKlogVerbosity(root *cobra.Command, stderr io.Writer) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for name, value := range map[string]string{"logtostderr": "false", "alsologtostderr": "false",
		"stderrthreshold": "FATAL", "one_output": "true"} {
		_ = fs.Set(name, value) // klog defines all of them

	}
	klog.SetOutput(redact.Writer(stderr))
	if v := fs.Lookup("v"); v != nil {
		root.PersistentFlags().AddGoFlag(v)
		root.PersistentFlags().Lookup("v").Usage = "Log level for client-go's own logs on stderr (0-10)"
	}
}
