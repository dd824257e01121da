// This file builds the root command that both binaries share, kubectl-ctrldiag and
// kubectl-ctrldiag-operator: cli-runtime's kubeconfig flags, -A and klog's -v, with errors
// printed once and mapped to the plugin's exit codes.

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// RootSpec names a root command.
type RootSpec struct {
	Use         string // the binary's name, e.g. kubectl-ctrldiag
	DisplayName string // how users type it, e.g. kubectl ctrldiag
	Short, Long string
	Example     string
}

// NewRoot returns a root command with the shared flags registered on it, and those flags.
func NewRoot(spec RootSpec, streams genericiooptions.IOStreams) (*cobra.Command, *GlobalFlags) {
	g := &GlobalFlags{ConfigFlags: genericclioptions.NewConfigFlags(true)}
	// --token is the metrics endpoint's bearer token in this plugin (see `queues -h`), so the
	// API-server bearer-token flag of ConfigFlags is not registered; the kubeconfig carries it.
	g.ConfigFlags.BearerToken = nil

	root := &cobra.Command{
		Use:     spec.Use,
		Short:   spec.Short,
		Long:    spec.Long,
		Example: spec.Example,
		Annotations: map[string]string{
			cobra.CommandDisplayNameAnnotation: spec.DisplayName,
		},
		SilenceErrors: true, // Main prints the one-line error
		// Main points to -h instead, as kubectl does: a page of usage would bury the error.
		// Subcommands still set their own SilenceUsage once their flags are valid, which is how
		// Main tells a usage error from a failure.
		SilenceUsage: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	setHelp(root)

	flags := root.PersistentFlags()
	g.ConfigFlags.AddFlags(flags)
	flags.BoolVarP(&g.AllNamespaces, "all-namespaces", "A", false, "Look in all namespaces instead of one")
	CompleteFlag(root, "namespace", CompleteNamespaces(g))
	CompleteFlag(root, "context", CompleteContexts(g))
	addKlogVerbosity(root, streams.ErrOut)
	return root, g
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

// Main runs root and returns the process exit code, after printing the error, if any, as one
// line on stderr; a usage error adds a line that points to the command's -h. A panic of the
// command is a bug: it is said in one line with the version to report (exit 1), never as a Go
// stack trace, which would quote whatever the failing code held.
func Main(root *cobra.Command, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			klog.Flush()
			fmt.Fprintln(stderr, "error: "+StderrLine(Bug(p)))
			code = ExitError
		}
	}()
	c, err := root.ExecuteC()
	klog.Flush()
	code, msg := CodeFor(err)
	var explicit *ExitCodeError
	var says interface{ Usage() bool }
	if code == ExitError && !errors.As(err, &explicit) && !errors.As(err, &says) && c != nil && (c == root || !c.SilenceUsage) {
		// Commands silence usage once their flags are validated: an error before that point
		// (unknown command or flag, bad value, wrong arguments) is a usage error, unless it
		// says itself what it is (an engine's error, e.g. a file that is no snapshot).
		code = ExitUsage
	}
	if strings.HasPrefix(msg, "unknown command") {
		// cobra indents its "Did you mean this?" suggestions with a tab, which the escaping
		// of every line would print as a literal \t.
		msg = strings.ReplaceAll(msg, "\n\t", "\n  ")
	}
	if msg != "" {
		fmt.Fprintln(stderr, "error: "+StderrLines(strings.TrimSpace(msg)))
		if code == ExitUsage && c != nil {
			fmt.Fprintf(stderr, "See '%s -h' for help and examples.\n", c.CommandPath())
		}
	}
	return code
}
