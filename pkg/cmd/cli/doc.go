// Package cli is what the command trees of both binaries share, kubectl-ctrldiag and
// kubectl-ctrldiag-operator: the root command with kubeconfig flags, -A and -v, errors and exit
// codes, the global flags, shell completion of flags and arguments, the one-line messages
// commands write on stderr, the version command, and the plugin's `operator` command, which
// hands its command line to the operator binary so that the plugin links no controller-runtime.
// It links no judging and no report layout.
package cli
