package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// SnapshotOptions holds the flag values of the snapshot command: report's, and the file.
type SnapshotOptions struct {
	Report *ReportOptions
	File   string
	// print is set when -o was given: the report is printed too.
	print bool
	genericiooptions.IOStreams
}

// NewSnapshotOptions returns the options with report's defaults.
func NewSnapshotOptions(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *SnapshotOptions {
	return &SnapshotOptions{Report: NewReportOptions(g, streams), IOStreams: streams}
}

// Complete takes the TARGET arguments.
func (o *SnapshotOptions) Complete(args []string) error { return o.Report.Complete(args) }

// Validate checks the flags as report does, and that there is a file to write.
func (o *SnapshotOptions) Validate() error {
	if o.File == "" {
		return cli.UsageError("-f FILE is required: the snapshot file to write (e.g. -f snapshot.tar.gz), or -f - for standard output")
	}
	if o.File == "-" && o.print {
		return cli.UsageError("-f - writes the snapshot to standard output, so -o cannot print the report there too: give -f FILE, or leave out -o")
	}
	if f, ok := o.Out.(*os.File); ok && o.File == "-" && term.IsTerminal(int(f.Fd())) {
		return cli.UsageError("-f - writes the snapshot, a binary archive, to standard output, which is a terminal: redirect it (> snapshot.tar.gz) or pipe it")
	}
	return o.Report.Validate()
}

// Run reads through a recorder, makes the report, and writes the snapshot; the report is
// printed too when -o asks. --fail-on sets the exit code as in report.
func (o *SnapshotOptions) Run(ctx context.Context) error {
	plan, report := o.Report.Planned()
	res, err := run.Snapshot(ctx, plan, report)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		cli.Say(o.ErrOut, "warning", w)
	}
	for _, note := range res.Notes {
		cli.Say(o.ErrOut, "warning", note)
	}
	said, err := res.Save(o.File, o.Out)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, said)
	if o.print {
		if err := render.Write(o.Out, o.Report.Format(), res.Report); err != nil {
			return err
		}
	}
	if res.NoneRead() {
		if err := res.Late(); err != nil {
			return err
		}
		return errors.New("no target could be read: see the scrape-failed findings (the snapshot holds the errors)")
	}
	if res.Failed() {
		return &cli.ExitCodeError{Code: cli.ExitFindings}
	}
	return nil
}
