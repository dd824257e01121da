// This file holds the flags that every kubectl-ctrldiag command shares, so that verb
// packages under pkg/cmd can read them without importing the root command.

package cli

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// GlobalFlags are cli-runtime's kubeconfig flags (--kubeconfig, --context, -n, ...) plus -A.
type GlobalFlags struct {
	ConfigFlags   *genericclioptions.ConfigFlags
	AllNamespaces bool
}

// Namespace returns the namespace to work in: -n, else the kubeconfig context's, else
// "default". With -A it returns "" (all namespaces); -A with -n is a usage error.
func (f *GlobalFlags) Namespace() (string, error) {
	if f.AllNamespaces {
		if f.ConfigFlags.Namespace != nil && *f.ConfigFlags.Namespace != "" {
			return "", UsageError("-A reads every namespace and -n one: give one of them")
		}
		return "", nil
	}
	ns, _, err := f.ConfigFlags.ToRawKubeConfigLoader().Namespace()
	return ns, err
}
