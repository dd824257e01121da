package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/plural"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// eventsSince is how far back the pods' Warning events are kept.
const eventsSince = time.Hour

// Options holds the flag values of the snapshot command: report's, and the file.
type Options struct {
	Report *report.Options
	File   string
	// print is set when -o was given: the report is printed too.
	print   bool
	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with report's defaults.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	return &Options{Report: report.NewOptions(g, streams), globals: g, IOStreams: streams}
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
	cfg, env := o.Report.Engine()
	rec := snapshot.Record(env.Source)
	env.Source = rec
	clock := env.Now
	if clock == nil {
		clock = time.Now
	}
	var taken time.Time
	env.Now = func() time.Time { taken = clock(); return taken }
	res, err := engine.Report(ctx, cfg, env)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		stderrline.Say(o.ErrOut, "warning", w)
	}
	doc, err := json.MarshalIndent(res.Report, "", "  ")
	if err != nil {
		return err
	}
	s := rec.Snapshot(ctx, snapshot.Manifest{Taken: taken, Plugin: version.Get(), Interval: cfg.Read.Interval.String(),
		Scope: snapshot.Scope{Cluster: cfg.Scope.Cluster, Namespace: cfg.Scope.Namespace, Selector: cfg.Scope.Selector}})
	s.Report = append(doc, '\n')
	if cfg.Scope.Cluster && o.Report.Sources.FromSnapshot == "" {
		for _, note := range o.clusterFacts(ctx, s, taken) {
			stderrline.Say(o.ErrOut, "warning", note)
		}
	}
	if err := o.save(s); err != nil {
		return err
	}
	r := res.Report
	if o.print {
		if err := render.Write(o.Out, o.Report.Output, r); err != nil {
			return err
		}
	}
	if r.Summary.Read == 0 {
		return errors.New("no target could be read: see the scrape-failed findings (the snapshot holds the errors)")
	}
	if o.Report.Failed(r) {
		return &exitcode.ExitCodeError{Code: exitcode.Findings}
	}
	return nil
}

// save writes the snapshot to -f, or to standard output for -f -, and says where.
func (o *Options) save(s *snapshot.Snapshot) error {
	pages := len(s.Pages)
	if o.File == "-" {
		if err := s.Write(o.Out); err != nil {
			return fmt.Errorf("cannot write the snapshot to standard output: %w", err)
		}
		fmt.Fprintf(o.ErrOut, "Snapshot of %s (%s) written to standard output.\n", plural.Count(len(s.Results), "target"), plural.Count(pages, "page"))
		return nil
	}
	if err := s.Save(o.File); err != nil {
		if nr := (*localfile.NotRegularError)(nil); errors.As(err, &nr) {
			return fmt.Errorf("cannot write the snapshot: %w, or -f - for standard output", err)
		}
		return fmt.Errorf("cannot write the snapshot: %w", err)
	}
	fmt.Fprintf(o.ErrOut, "Snapshot of %s (%s) written to %s: attach it to the ticket; `kubectl ctrldiag report --from-snapshot %s` reads it anywhere.\n",
		plural.Count(len(s.Results), "target"), plural.Count(pages, "page"), o.File, o.File)
	return nil
}

// clusterFacts adds the API server's version and the pods' recent Warning events; it returns
// what could not be read, as warnings.
func (o *Options) clusterFacts(ctx context.Context, s *snapshot.Snapshot, now time.Time) []string {
	kube, err := open.Connect(o.globals.ConfigFlags, o.Report.Sources.Timeout)
	if err != nil {
		return []string{err.Error()}
	}
	client := kube.Client
	s.Manifest.APIServer = snapshot.ServerVersion(client)
	var notes []string
	s.Events, notes = snapshot.RecentEvents(ctx, client, s.Inventory.Pods, now, eventsSince)
	return notes
}
