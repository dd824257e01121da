package scrape

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// FileSource replays saved pages of one target: one path for a single sample, or several
// (taken in that order, e.g. --interval apart) for rates. "-" reads standard input.
type FileSource struct {
	Paths        []string
	MaxBodyBytes int64
	Stdin        io.Reader
	next         int
}

var _ Recorded = (*FileSource)(nil)

// Name is the first path: the pages of one FileSource are samples of one target.
func (f *FileSource) Name() string {
	if len(f.Paths) == 0 || f.Paths[0] == "-" {
		return "stdin"
	}
	return f.Paths[0]
}

// Target is the saved pages as a target.
func (f *FileSource) Target() target.Target {
	return target.Target{Kind: target.KindFile, Name: f.Name()}
}

// Pages is the number of saved pages.
func (f *FileSource) Pages() int { return len(f.Paths) }

// Fetch opens the next saved page.
func (f *FileSource) Fetch(context.Context) (*Page, error) {
	if f.next >= len(f.Paths) {
		return nil, fmt.Errorf("no more saved pages: %d given", len(f.Paths))
	}
	p := f.Paths[f.next]
	f.next++
	var rc io.ReadCloser
	if p == "-" {
		if f.Stdin == nil {
			return nil, fmt.Errorf("no standard input to read")
		}
		rc = io.NopCloser(f.Stdin)
	} else {
		file, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read the saved page: %w", err)
		}
		rc = file
	}
	body, err := capped(rc, f.MaxBodyBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &Page{Body: body, Name: p}, nil
}
