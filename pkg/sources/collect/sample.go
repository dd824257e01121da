// This file takes one or two samples of every target --interval apart, in parallel and
// bounded, and parses them. A target that fails yields an error for that target only.

package collect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// options are the reading options and the Keep decisions shared by every page of the reading.
type options struct {
	source.Options
	selector *parse.Selector
}

// Collect samples every source and returns one Result per source, in the order given. Each
// Result carries the target as it was reached in the end and the source's notes. ctx bounds
// it: a target not read when the run's deadline (source.Clock) ends ctx says so, the others
// keep their samples.
func Collect(ctx context.Context, sources []scrape.Source, so source.Options) []source.Result {
	o := options{Options: so, selector: parse.NewReducingSelector(so.Keep, so.Reduce)}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	out := make([]source.Result, len(sources))
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i, src := range sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = collectSafely(ctx, src, o, sem)
			out[i].Target = src.Target()
			if n, ok := src.(scrape.Noted); ok {
				out[i].Notes = n.Notes()
			}
			if out[i].Err != nil {
				if late := deadlineError(ctx, out[i]); late != nil {
					out[i].Err = late
				}
			}
			if o.Done != nil {
				o.Done()
			}
		}()
	}
	wg.Wait()
	return out
}

// collectSafely is collectOne, with a panic of the code that reads the target (a bug, most
// likely brought out by a page no test had) turned into this target's error: the other
// targets are still read and reported, and the user reads one line instead of a stack.
func collectSafely(ctx context.Context, src scrape.Source, o options, sem chan struct{}) (r source.Result) {
	defer func() {
		if p := recover(); p != nil {
			r = source.Result{Err: fmt.Errorf("internal error while reading this target: %v; this is a bug: please report it with the command line you ran", p)}
		}
	}()
	return collectOne(ctx, src, o, sem)
}

// deadlineError says that the run's overall deadline (ctx's) stopped the target, and what to
// do; nil when it did not.
func deadlineError(ctx context.Context, r source.Result) error {
	what := "before this target answered"
	if len(r.Samples) == 1 {
		what = "before its second sample (rates and window quantiles unavailable, lifetime figures shown)"
	}
	return source.Late(ctx, what, "", "lower --timeout so that one slow target cannot hold a worker, raise --concurrency, or name fewer targets")
}

// OrderError says that two saved pages of one target cannot make a window: the second was not
// taken after the first. It is a mistake in what the user gave, not in the pages.
type OrderError struct{ First, Second time.Time }

func (e *OrderError) Error() string {
	a, b := e.First.UTC().Format(time.RFC3339), e.Second.UTC().Format(time.RFC3339)
	if e.First.Equal(e.Second) {
		return fmt.Sprintf("the saved pages were taken at the same time (sample-time comments both %s): give two pages taken apart", a)
	}
	return fmt.Sprintf("the saved pages are not in time order (sample-time comments %s, then %s): give the earlier one first", a, b)
}

// Usage marks the error as one in the command line.
func (e *OrderError) Usage() bool { return true }

func collectOne(ctx context.Context, src scrape.Source, o options, sem chan struct{}) source.Result {
	var r source.Result
	want := 1
	rec, recorded := src.(scrape.Recorded)
	switch {
	case recorded && rec.Pages() > 1 && o.Interval == 0:
		// One sample asked for: use the latest saved page.
		for i := 0; i < rec.Pages()-1; i++ {
			if _, err := take(ctx, src, o, sem); err != nil {
				r.Err = err
				return r
			}
		}
	case recorded:
		want = min(rec.Pages(), 2)
	case o.Interval > 0:
		want = 2
	}
	for n := 0; n < want; n++ {
		if n == 1 && !recorded {
			if o.First != nil {
				o.First(source.Result{Target: src.Target(), Samples: r.Samples})
			}
			wait := time.Until(r.Samples[0].Time.Add(o.Interval))
			select {
			case <-ctx.Done():
				r.Err = fmt.Errorf("second sample: %w", ctx.Err())
				return r
			case <-time.After(wait):
			}
		}
		s, err := take(ctx, src, o, sem)
		if err != nil {
			if n == 1 {
				err = fmt.Errorf("second sample (rates and window quantiles unavailable, lifetime figures shown): %w", err)
			}
			r.Err = err
			return r
		}
		r.Samples = append(r.Samples, s)
	}
	if len(r.Samples) == 2 {
		r.Window = r.Samples[1].Time.Sub(r.Samples[0].Time)
		if recorded && (r.Samples[0].Time.IsZero() || r.Samples[1].Time.IsZero()) {
			r.Window = o.Interval
			r.Notes = append(r.Notes, fmt.Sprintf("%s: the saved pages do not say when they were taken (no sample-time comment): their window is assumed to be --interval %s", src.Name(), o.Interval))
		}
		if r.Window <= 0 {
			r.Err = &OrderError{First: r.Samples[0].Time, Second: r.Samples[1].Time}
			r.Samples = r.Samples[1:]
			r.Window = 0
		}
	}
	return r
}

// take fetches and parses one page within the per-page timeout.
func take(ctx context.Context, src scrape.Source, o options, sem chan struct{}) (source.Sample, error) {
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return source.Sample{}, ctx.Err()
	}
	defer func() { <-sem }()
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	page, err := src.Fetch(ctx)
	if err != nil {
		return source.Sample{}, err
	}
	defer page.Body.Close()
	name := page.Name
	if name == "" {
		name = "page"
	}
	var body io.Reader = page.Body
	var raw *bytes.Buffer
	if o.KeepRaw {
		raw = &bytes.Buffer{}
		body = io.TeeReader(page.Body, raw)
	}
	p, err := parse.ParseSelected(name, body, o.selector)
	if err != nil {
		return source.Sample{}, err
	}
	// A live page is taken now, whatever it says: only saved pages (no request time) may
	// carry their own time, or a page could stretch or stall the window it is judged on.
	t := page.Time
	if t.IsZero() {
		t = p.SampleTime
	}
	s := source.Sample{Families: p.Families, Time: t}
	if raw != nil {
		// The parser may stop before the end (a trailing blank); what it did not read is
		// part of the page too, and still within the body cap.
		if _, err := io.Copy(raw, page.Body); err != nil {
			return source.Sample{}, err
		}
		s.Raw = raw.Bytes()
	}
	return s, nil
}
