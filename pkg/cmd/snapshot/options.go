package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
)

// Options holds the flag values of the snapshot command: report's, and the file.
type Options struct {
	Report *report.Options
	File   string
	// print is set when -o was given: the report is printed too.
	print bool
	genericiooptions.IOStreams
}

// NewOptions returns the options with report's defaults.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	return &Options{Report: report.NewOptions(g, streams), IOStreams: streams}
}

// Complete takes the TARGET arguments.
func (o *Options) Complete(args []string) error { return o.Report.Complete(args) }

// Validate checks the flags as report does, and that there is a file to write.
func (o *Options) Validate() error {
	if o.File == "" {
		return exitcode.UsageError("-f FILE is required: the snapshot file to write (e.g. -f snapshot.tar.gz), or -f - for standard output")
	}
	if o.File == "-" && o.print {
		return exitcode.UsageError("-f - writes the snapshot to standard output, so -o cannot print the report there too: give -f FILE, or leave out -o")
	}
	if f, ok := o.Out.(*os.File); ok && o.File == "-" && term.IsTerminal(int(f.Fd())) {
		return exitcode.UsageError("-f - writes the snapshot, a binary archive, to standard output, which is a terminal: redirect it (> snapshot.tar.gz) or pipe it")
	}
	return o.Report.Validate()
}

// Run reads through a recorder, makes the report, and writes the snapshot; the report is
// printed too when -o asks. --fail-on sets the exit code as in report.
func (o *Options) Run(ctx context.Context) error {
	res, err := o.Report.Opened().Record(ctx)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		stderrline.Say(o.ErrOut, "warning", w)
	}
	for _, note := range res.Notes {
		stderrline.Say(o.ErrOut, "warning", note)
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
		return &exitcode.ExitCodeError{Code: exitcode.Findings}
	}
	return nil
}
