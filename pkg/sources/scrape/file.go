package scrape

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// FileSource replays saved pages of one target: one path for a single sample, or several
// (taken in that order, e.g. --interval apart) for rates. "-" reads standard input.
type FileSource struct {
	// Label is the target's name; empty names it by the base name of its last page.
	Label        string
	Paths        []string
	MaxBodyBytes int64
	Stdin        io.Reader
	next         int
}

var _ Recorded = (*FileSource)(nil)

// Name is the target's name: Label, or the base name of the last page (the AFTER of
// BEFORE,AFTER, the page the figures are of); "stdin" for standard input.
func (f *FileSource) Name() string {
	switch {
	case f.Label != "":
		return f.Label
	case len(f.Paths) == 0 || f.Paths[len(f.Paths)-1] == "-":
		return "stdin"
	}
	return filepath.Base(f.Paths[len(f.Paths)-1])
}

// Target is the saved pages as a target.
func (f *FileSource) Target() target.Target {
	return target.Target{Kind: target.KindFile, Name: f.Name()}
}

// Pages is the number of saved pages.
func (f *FileSource) Pages() int { return len(f.Paths) }

// Fetch opens the next saved page. A FIFO or a pipe (standard input) is opened and read
// within ctx: one that no process writes to fails when ctx ends, as a URL that does not
// answer would.
func (f *FileSource) Fetch(ctx context.Context) (*Page, error) {
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
		rc = io.NopCloser(localfile.Bound(ctx, f.Stdin, "standard input"))
	} else {
		file, err := localfile.Open(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("cannot read the saved page%s: %w", f.other(p), waitHint(pathless(err)))
		}
		rc = file
	}
	body, err := capped(rc, f.MaxBodyBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read the saved page%s: %w", f.other(p), waitHint(err))
	}
	body = &waitHintBody{body}
	return &Page{Body: body, Name: p}, nil
}

// other is " PATH" unless p is what the target's name already says (the errors are printed
// after it): a page in the working directory named by its base name.
func (f *FileSource) other(p string) string {
	switch {
	case p == f.Name():
		return ""
	case p == "-":
		return " (standard input)"
	}
	return " " + p
}

// pathless is err without the "open PATH:" of an *fs.PathError: "no such file or directory",
// said after the path once.
func pathless(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// waitHint adds, to a FIFO or pipe that gave nothing in time, what bounds the wait.
func waitHint(err error) error {
	var we *localfile.WaitError
	if errors.As(err, &we) {
		return fmt.Errorf("%w: the wait for a saved page is bounded by --timeout (and --deadline in all); start the writer first, or raise --timeout", err)
	}
	return err
}

// waitHintBody passes its read errors through waitHint.
type waitHintBody struct{ io.ReadCloser }

func (b *waitHintBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = waitHint(err)
	}
	return n, err
}
