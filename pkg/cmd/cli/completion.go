// This file offers the values of flags and arguments to shell completion, which
// kubectl reaches through kubectl_complete-ctrldiag and `kubectl-ctrldiag __complete`: fixed
// word lists taken from the lists the commands validate against, the kubeconfig's contexts,
// and the cluster's namespaces and pods. Completion never prints an error and never waits
// long: a cluster that does not answer within a moment offers nothing.

package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// clusterTimeout bounds every question completion asks the cluster, for a shell waits for the
// answer after each TAB (a variable for tests).
var clusterTimeout = 2 * time.Second

// listLimit bounds the names read from the cluster: more than a screen of candidates helps no
// one, and a big cluster must not make TAB slow.
const listLimit = 500

// CompleteFlag sets fn as the completion of cmd's flag name. The flag must exist and have no
// completion yet: anything else is a mistake in the command's code.
func CompleteFlag(cmd *cobra.Command, name string, fn cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(name, fn); err != nil {
		panic(fmt.Sprintf("completion of --%s on %s: %v", name, cmd.CommandPath(), err))
	}
}

// CompleteWords completes with the values that start with what is typed, never with file names.
func CompleteWords(values ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return matching(values, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteFormats completes -o with the formats a command accepts, the list it validates -o against:
// "", the default output, is not something to type and is left out. When every value offered
// takes something after it (jsonpath=), no space follows, so that it can be typed at once.
func CompleteFormats(allowed ...string) cobra.CompletionFunc {
	var words []string
	for _, f := range allowed {
		if f != "" {
			words = append(words, f)
		}
	}
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		values := matching(words, toComplete)
		directive := cobra.ShellCompDirectiveNoFileComp
		if len(values) > 0 && !slices.ContainsFunc(values, func(v string) bool { return !strings.HasSuffix(v, "=") }) {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return values, directive
	}
}

// CompleteKeys completes a NAME=VALUE flag with "NAME=" for each of names, and no space after it, so
// that the value can be typed at once.
func CompleteKeys(names ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if strings.Contains(toComplete, "=") {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		keys := make([]string, 0, len(names))
		for _, n := range names {
			keys = append(keys, n+"=")
		}
		return matching(keys, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// matching are the values that start with prefix, in their order.
func matching(values []string, prefix string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// CompleteContexts completes --context with the kubeconfig's contexts; it reads no cluster.
func CompleteContexts(g *GlobalFlags) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := g.ConfigFlags.ToRawKubeConfigLoader().RawConfig()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := make([]string, 0, len(cfg.Contexts))
		for name := range cfg.Contexts {
			names = append(names, name)
		}
		slices.Sort(names)
		return matching(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteNamespaces completes -n with the cluster's namespaces.
func CompleteNamespaces(g *GlobalFlags) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return listNames(g, toComplete, func(ctx context.Context, c kubernetes.Interface, opts metav1.ListOptions) ([]string, error) {
			l, err := c.CoreV1().Namespaces().List(ctx, opts)
			if err != nil {
				return nil, err
			}
			names := make([]string, 0, len(l.Items))
			for _, ns := range l.Items {
				names = append(names, ns.Name)
			}
			return names, nil
		}), cobra.ShellCompDirectiveNoFileComp
	}
}

// podPrefixes are the ways a TARGET argument names a pod (see discover.ParseExplicit) that
// completion keeps in front of the pod's name.
var podPrefixes = []string{"pod/", "pods/", "po/"}

// CompletePods completes TARGET arguments with the names of the pods in the namespace the command
// reads (-n, else the kubeconfig context's), as typed: NAME, or pod/NAME once "pod/" is typed.
// With -A there is no one namespace to name pods in and nothing is offered.
func CompletePods(g *GlobalFlags) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if g.AllNamespaces {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		prefix := ""
		for _, p := range podPrefixes {
			if strings.HasPrefix(toComplete, p) {
				prefix = p
			}
		}
		if prefix == "" && strings.Contains(toComplete, "/") {
			return nil, cobra.ShellCompDirectiveNoFileComp // svc/, deploy/: not pods
		}
		ns, err := g.Namespace()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := listNames(g, toComplete, func(ctx context.Context, c kubernetes.Interface, opts metav1.ListOptions) ([]string, error) {
			l, err := c.CoreV1().Pods(ns).List(ctx, opts)
			if err != nil {
				return nil, err
			}
			names := make([]string, 0, len(l.Items))
			for _, p := range l.Items {
				names = append(names, prefix+p.Name)
			}
			return names, nil
		})
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}

// newClient is how completion reaches the cluster (a variable for tests).
var newClient = func(g *GlobalFlags) (kubernetes.Interface, error) {
	cfg, err := g.ConfigFlags.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	cfg.Timeout = clusterTimeout
	return kubernetes.NewForConfig(cfg)
}

// listNames asks the cluster with list, within clusterTimeout, and returns the names that
// start with prefix, sorted; nothing when the cluster cannot be reached or refuses.
func listNames(g *GlobalFlags, prefix string, list func(context.Context, kubernetes.Interface, metav1.ListOptions) ([]string, error)) []string {
	if g == nil || g.ConfigFlags == nil {
		return nil
	}
	client, err := newClient(g)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), clusterTimeout)
	defer cancel()
	names, err := list(ctx, client, metav1.ListOptions{Limit: listLimit})
	if err != nil {
		return nil
	}
	slices.Sort(names)
	return matching(names, prefix)
}
