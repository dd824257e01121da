// This file implements `kubectl ctrldiag diff BEFORE AFTER`: what changed between two
// snapshots or two `report -o json` files, per controller and queue, and which findings
// appeared and resolved, with an exit code for CI.

package cmd

import (
	"context"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

const diffLong = `Compare two diagnoses: two snapshots (kubectl ctrldiag snapshot -f), two 'report -o json'
files, or one of each. Shows, per controller and queue, the figures that changed (depth,
drain time, adds, completions and retries per second, reconcile errors, queue and work
latency p50/p90/p99), the objects that failed or trail their spec by kind, the service levels
(per queue: queue wait p99, share over the objective and the verdicts, a changed verdict
called out as "holds -> breaks"; per kind: spec latency and time to Ready p50/p99 and what
was pending), and the findings that appeared and those that resolved.

A snapshot is judged from its pages, as 'report --from-snapshot' judges it (default
thresholds; the ignore file .ctrldiag-ignore.yaml of the current folder when present), so
the two commands agree on a file. When the report the snapshot stores disagrees with its
pages (edited, or made with other flags or by another version), a warning says it was not used.

A controller is matched by its workload (namespace/deployment/NAME:PORT), not its pod, so a
rollout that renames the pods still compares the same controller; of several replicas the
busiest (the leader) stands for the workload.

Exit codes:
  0  the comparison was printed and --fail-on was not reached (default none: always 0)
  1  a file could not be read (not a snapshot or report, a hostile archive)
  2  invalid flags or arguments, or an ignore file that is not valid (the line is named)
  3  the comparison was printed and a finding at --fail-on's severity appeared
     (new-warning: a new warning or critical finding; new-critical: a new critical one)`

const diffExample = `  # Did the rollout make it better?
  kubectl ctrldiag diff before.tar.gz after.tar.gz

  # In CI: fail when the change brought a new warning, as Markdown for the PR
  kubectl ctrldiag diff baseline.json candidate.json --fail-on new-warning \
    -o markdown

  # Two reports saved as JSON, before and after a change
  kubectl ctrldiag report -n ops -o json > before.json
  kubectl ctrldiag report -n ops -o json > after.json
  kubectl ctrldiag diff before.json after.json`

// DiffOptions are the diff command's flags and arguments.
type DiffOptions struct {
	Before, After string
	Output        string
	FailOn        FailOnFlag
	// Deadline bounds the reading of both files when they are FIFOs or pipes.
	Deadline time.Duration

	// bounds bound the reading of both; set by Validate, with format, -o ready to print.
	bounds run.Spec
	format string
	genericiooptions.IOStreams
}

// diffFormats are the values of -o: "" is text.
var diffFormats = slices.Concat([]string{"", "text", "json", "yaml", "markdown"}, printer.TemplateFormats)

// NewDiffCmd returns the diff command.
func NewDiffCmd(streams genericiooptions.IOStreams) *cobra.Command {
	o := &DiffOptions{IOStreams: streams, FailOn: FailOnAppeared(), Deadline: DefaultDeadline}
	cmd := &cobra.Command{
		Use:     "diff BEFORE AFTER [flags]",
		Short:   "Compare two snapshots or reports: queues, findings new and resolved",
		Long:    diffLong,
		Example: diffExample,
		// BEFORE and AFTER are files: snapshots or report -o json.
		ValidArgsFunction: cli.CompleteFiles(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Validate(args); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: text (default), json, yaml, markdown, jsonpath=TEMPLATE or go-template=TEMPLATE (and their -file= forms, as kubectl)")
	o.FailOn.AddFlag(cmd.Flags())
	o.FailOn.RegisterCompletion(cmd)
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(diffFormats...))
	cmd.Flags().DurationVar(&o.Deadline, "deadline", o.Deadline, "Time limit for the whole run: reading both files (FIFOs or pipes, e.g. <(ssh host cat before.tar.gz)) and replaying their snapshots")
	return cmd
}

// Validate checks the arguments and flags.
func (o *DiffOptions) Validate(args []string) error {
	if len(args) != 2 {
		return cli.UsageError("diff takes two files, BEFORE and AFTER, got %d", len(args))
	}
	o.Before, o.After = args[0], args[1]
	format, err := printer.Prepare(o.Output, diffFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	o.format = format
	if err := o.FailOn.Validate(); err != nil {
		return err
	}
	if err := CheckDeadline(o.Deadline); err != nil {
		return err
	}
	bounds := SourceDefaults()
	bounds.Deadline = o.Deadline
	o.bounds = bounds.Bounds()
	return nil
}

// Run reads both, prints the comparison and sets the exit code --fail-on asks for.
func (o *DiffOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := run.Diff(ctx, o.bounds, o.Before, o.After)
	if res != nil {
		for _, w := range res.Warnings {
			cli.Say(o.ErrOut, "warning", w)
		}
	}
	if err != nil {
		return err
	}
	d := res.Diff
	if err := render.Write(o.Out, o.format, d); err != nil {
		return err
	}
	if o.FailOn.Fails(d.Appeared) {
		return &cli.ExitCodeError{Code: cli.ExitFindings}
	}
	return nil
}
