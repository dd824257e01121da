package scrape

import (
	"context"
	"io"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Source reads the metrics page of one target.
type Source interface {
	// Name identifies the target in output and errors. It never contains credentials.
	Name() string
	// Target is the target read, as it is reached now (a fallback changes its Via).
	Target() target.Target
	// Fetch returns the target's page. The caller reads the Body within ctx and closes it.
	// For a live target each call reads the target anew.
	Fetch(ctx context.Context) (*Page, error)
}

// Recorded is a Source that replays saved pages instead of reading a live target: it
// returns Pages() pages, one a call, in the order they were taken.
type Recorded interface {
	Source
	Pages() int
}

// Page is one metrics page as it arrives, not yet parsed.
type Page struct {
	Body io.ReadCloser
	// Name names the page in parse errors (a saved page's path); "" for "page".
	Name string
	// Time is when the page was requested; zero for saved pages (their time, if any, is in a
	// "# ctrldiag-sample-time:" comment).
	Time time.Time
	// ContentType is the answer's Content-Type header, "" for saved pages. The Body of an HTTP
	// answer also reports it (parse.ContentTyper), so that a page that turns out not to be text
	// exposition is described by what the endpoint said it was.
	ContentType string
}

// Noted is a Source that learns things the user should know while it reads (a fallback to
// another way of reaching the target): Notes returns them, after the reading.
type Noted interface {
	Source
	Notes() []string
}
