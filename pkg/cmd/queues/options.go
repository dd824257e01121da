package queues

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printers"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/scrape"
)

// Options holds the flag values of the queues command.
type Options struct {
	URLs         []string
	Files        []string
	Token        string
	TokenFile    string
	CAFile       string
	Insecure     bool
	Interval     time.Duration
	Timeout      time.Duration
	MaxBodyBytes int64
	Concurrency  int
	Output       string

	// Set by Complete.
	sources []scrape.Source

	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with their defaults.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	return &Options{globals: g, IOStreams: streams, Interval: 5 * time.Second, Timeout: 10 * time.Second,
		MaxBodyBytes: scrape.DefaultMaxBodyBytes, Concurrency: 8}
}

// Complete reads the token file.
func (o *Options) Complete() error {
	if o.TokenFile != "" {
		if o.Token != "" {
			return exitcode.UsageError("--token and --token-file are exclusive: give one")
		}
		b, err := os.ReadFile(o.TokenFile)
		if err != nil {
			return exitcode.UsageError("cannot read --token-file: %v", err)
		}
		o.Token = strings.TrimSpace(string(b))
		if o.Token == "" {
			return exitcode.UsageError("--token-file %s is empty", o.TokenFile)
		}
	}
	return nil
}

// Validate checks the flag values and builds the sources.
func (o *Options) Validate() error {
	if err := printers.ValidateFormat(o.Output, "", "wide", "json", "yaml"); err != nil {
		return exitcode.UsageError("%v", err)
	}
	switch {
	case len(o.URLs) == 0 && len(o.Files) == 0:
		return exitcode.UsageError("nothing to read: give --url or --from-file (cluster discovery is not available yet)")
	case o.Interval < 0:
		return exitcode.UsageError("--interval must be 0 (one sample) or positive, got %s", o.Interval)
	case o.Timeout <= 0:
		return exitcode.UsageError("--timeout must be positive, got %s", o.Timeout)
	case o.MaxBodyBytes <= 0:
		return exitcode.UsageError("--max-body-bytes must be positive, got %d", o.MaxBodyBytes)
	case o.Concurrency <= 0:
		return exitcode.UsageError("--concurrency must be positive, got %d", o.Concurrency)
	}
	o.sources = nil
	stdin := 0
	for _, f := range o.Files {
		paths := strings.Split(f, ",")
		if len(paths) > 2 || f == "" || strings.HasPrefix(f, ",") || strings.HasSuffix(f, ",") {
			return exitcode.UsageError("--from-file %q: give one path, or two as BEFORE,AFTER", f)
		}
		for _, p := range paths {
			if p == "-" {
				stdin++
			}
		}
		o.sources = append(o.sources, &scrape.FileSource{Paths: paths, MaxBodyBytes: o.MaxBodyBytes, Stdin: o.In})
	}
	if stdin > 1 {
		return exitcode.UsageError(`--from-file: standard input ("-") can be read only once`)
	}
	if len(o.URLs) > 0 {
		cfg := scrape.HTTPConfig{Token: o.Token, CAFile: o.CAFile, InsecureSkipVerify: o.Insecure, MaxBodyBytes: o.MaxBodyBytes}
		client, err := scrape.NewHTTPClient(cfg)
		if err != nil {
			return exitcode.UsageError("%v", err)
		}
		for _, u := range o.URLs {
			src, err := scrape.NewURLSource(u, client, cfg)
			if err != nil {
				return exitcode.UsageError("%v", err)
			}
			if o.Token != "" && src.URL.Scheme == "http" {
				fmt.Fprintf(o.ErrOut, "warning: %s: the bearer token is sent over plain http\n", src.Name())
			}
			o.sources = append(o.sources, src)
		}
	}
	return nil
}

// Run samples the sources, computes the queue figures and prints them.
func (o *Options) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	results := sample.Collect(ctx, o.sources, sample.Options{
		Interval: o.Interval, Timeout: o.Timeout, Concurrency: o.Concurrency, Keep: health.Wanted,
	})
	stats, errs := Analyse(results, health.DefaultThresholds())
	list := render.NewQueueList(stats, errs)
	failed := 0
	for _, r := range results {
		if len(r.Samples) == 0 {
			failed++
		}
	}
	if failed == len(results) {
		msgs := make([]string, 0, len(errs))
		for _, e := range errs {
			msgs = append(msgs, "  "+e.Target+": "+e.Error)
		}
		return errors.New("no target could be read:\n" + strings.Join(msgs, "\n"))
	}
	for _, e := range errs {
		fmt.Fprintf(o.ErrOut, "error: %s: %s\n", e.Target, e.Error)
	}
	if printers.Structured(o.Output) {
		return printers.Write(o.Out, o.Output, list)
	}
	return render.QueueTable(o.Out, list, o.Output == "wide")
}

// Analyse turns sampling results into queue figures, sorted worst first, and the errors of
// the targets that failed.
func Analyse(results []sample.Result, th health.Thresholds) ([]health.QueueStats, []render.TargetError) {
	var stats []health.QueueStats
	var errs []render.TargetError
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, render.TargetError{Target: r.Target, Error: r.Err.Error()})
		}
		switch len(r.Samples) {
		case 1:
			cur := health.FromFamilies(r.Samples[0].Families, r.Samples[0].Time)
			stats = append(stats, health.Queues(r.Target, nil, cur, 0, th)...)
		case 2:
			prev := health.FromFamilies(r.Samples[0].Families, r.Samples[0].Time)
			cur := health.FromFamilies(r.Samples[1].Families, r.Samples[1].Time)
			stats = append(stats, health.Queues(r.Target, prev, cur, r.Window, th)...)
		}
	}
	health.Sort(stats)
	return stats, errs
}
