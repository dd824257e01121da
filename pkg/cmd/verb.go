package cmd

import (
	"context"

	"github.com/spf13/cobra"
)

// options are what each reading verb's options do, in kubectl's order: take the arguments,
// check the flags, run.
type options interface {
	Complete(args []string) error
	Validate() error
	Run(ctx context.Context) error
}

// runOptions is the RunE of a verb with options: an error of Complete or Validate is a usage
// error, and cobra prints the usage after it; an error of the run is not.
func runOptions(o options) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := o.Complete(args); err != nil {
			return err
		}
		if err := o.Validate(); err != nil {
			return err
		}
		cmd.SilenceUsage = true
		return o.Run(cmd.Context())
	}
}
