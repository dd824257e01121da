// This file implements `kubectl ctrldiag operator ...` in the plugin binary by
// handing the command line over to the operator's own binary, kubectl-ctrldiag-operator.
//
// The reference operator links controller-runtime, k8s.io/apiserver and their dependencies,
// which more than doubled the plugin and tripled its start-up. Shipped as a second binary
// beside the plugin, it costs the diagnostic commands nothing. kubectl itself runs
// kubectl-ctrldiag-operator for `kubectl ctrldiag operator ...` when that binary is on PATH;
// this command covers the other ways in: krew links only kubectl-ctrldiag onto PATH (the
// operator binary stays beside it in krew's store), and `kubectl ctrldiag -n NS operator ...`
// reaches the plugin because kubectl stops looking for a longer plugin name at the first flag.

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"
)

// OperatorBinary is the name of the operator's binary (with ".exe" on Windows).
const OperatorBinary = "kubectl-ctrldiag-operator"

// OperatorShort and OperatorLong describe the operator command; the operator binary's root uses them too.
const (
	OperatorShort = "Run or install the reference operator, a controller with faults"
	OperatorLong  = `The reference operator is a real controller-runtime operator with a small CRD
(workloads.demo.ctrldiag.dev). Each Workload's spec sets how its reconcile behaves (delay,
failure rate, requeue, stuck, children, payload), and --scenario NAME creates a named load
that shows one fault on /metrics, so that there is always something to diagnose.`
)

// handOver runs the operator binary in place of this command (a variable for tests).
var handOver = execBinary

// NewOperatorLaunchCmd returns the `operator` command of the plugin binary. It parses no flags: everything
// after "operator", and the global flags before it, go to kubectl-ctrldiag-operator as typed.
func NewOperatorLaunchCmd(streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "operator (run|install|uninstall) [flags]",
		Short: OperatorShort,
		Long: OperatorLong + `

The operator is its own binary, ` + OperatorBinary + `, shipped beside kubectl-ctrldiag;
run "kubectl ctrldiag operator --help" for its commands and flags.`,
		DisableFlagParsing: true,
		ValidArgsFunction:  complete,
		RunE: func(cmd *cobra.Command, args []string) error {
			self, _ := os.Executable()
			path, err := FindOperator(self, exec.LookPath)
			if err != nil {
				cmd.SilenceUsage = true
				return err
			}
			klog.Flush()
			return handOver(path, args, streams)
		},
	}
}

// FindOperator returns the operator binary to run: the one next to the running plugin (self), also
// after resolving symlinks as krew makes them, else the one lookPath finds on PATH.
func FindOperator(self string, lookPath func(string) (string, error)) (string, error) {
	name := OperatorBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var dirs []string
	if self != "" {
		dirs = append(dirs, filepath.Dir(self))
		if real, err := filepath.EvalSymlinks(self); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, dir := range dirs {
		candidate := filepath.Join(dir, name)
		if st, err := os.Stat(candidate); err == nil && st.Mode().IsRegular() {
			return candidate, nil
		}
	}
	if path, err := lookPath(name); err == nil {
		return path, nil
	}
	where := "on PATH"
	if len(dirs) > 0 {
		where = fmt.Sprintf("in %s or on PATH", dirs[len(dirs)-1])
	}
	return "", errors.New("the operator command is a separate binary, " + name + ", and it is not " + where +
		": it ships in the same release archive as kubectl-ctrldiag (krew installs both); put it next to kubectl-ctrldiag, or build it with `make build`")
}
