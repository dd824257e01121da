package goroutines

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Bounds limit one fetch.
type Bounds struct {
	// Timeout bounds the request and the reading of the body.
	Timeout time.Duration
	// MaxBytes is the most of the dump read; a longer one is cut there, and the profile says so.
	MaxBytes int64
}

// DefaultBounds suit a controller with some ten thousand goroutines.
func DefaultBounds() Bounds { return Bounds{Timeout: 10 * time.Second, MaxBytes: 32 << 20} }

// Getter reaches the process behind a target: a scrape.Transport (the API server's pod proxy,
// a port-forward, or directly).
type Getter interface {
	Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error)
}

// Fetch reads the dump at t through tr and groups its workers. It never fails: what went wrong
// is the profile's note. token is the credential tr sends to t, "" for none: taken out of
// anything said about it, and a refusal says whether one was sent.
func Fetch(ctx context.Context, tr Getter, t target.Target, b Bounds, token string) *Profile {
	p := &Profile{Endpoint: endpointName(t), Time: time.Now()}
	if b.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Timeout)
		defer cancel()
	}
	h := http.Header{}
	h.Set("Accept", "text/plain")
	h.Set("User-Agent", "kubectl-ctrldiag")
	resp, err := tr.Get(ctx, t, h)
	if err != nil {
		p.Note = "not read: " + redact.ExcerptWithout(err.Error(), token)
		if ctx.Err() != nil {
			p.Note = fmt.Sprintf("not read within %s", b.Timeout)
		}
		return p
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		p.Note = "not read: " + statusNote(resp.StatusCode, t, token != "")
		return p
	}
	// The dump is parsed as it arrives: only its workers are kept, never the whole text.
	body := &counted{r: io.LimitReader(resp.Body, b.MaxBytes)}
	d, err := ParseWorkers(body, DefaultLimits())
	cut := body.n >= b.MaxBytes && more(resp.Body)
	if body.err != nil {
		if ctx.Err() != nil {
			p.Note = fmt.Sprintf("not read within %s", b.Timeout)
		} else {
			p.Note = "not read: " + redact.ExcerptWithout(body.err.Error(), token)
		}
		return p
	}
	if d == nil || d.Total == 0 {
		p.Note = "the answer is not a goroutine dump"
		if err != nil {
			p.Note += ": " + redact.ExcerptWithout(err.Error(), token)
		}
		return p
	}
	parsed := NewProfile(d)
	parsed.Endpoint, parsed.Time = p.Endpoint, p.Time
	if cut {
		parsed.Note = strings.TrimPrefix(parsed.Note+"; ", "; ") + fmt.Sprintf("the dump was cut at %d MiB", b.MaxBytes>>20)
	}
	return parsed
}

// counted reads r and counts the bytes read; err is the first error other than the end.
type counted struct {
	r   io.Reader
	n   int64
	err error
}

func (c *counted) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// more says whether r holds another byte.
func more(r io.Reader) bool {
	n, _ := io.ReadFull(r, make([]byte, 1))
	return n == 1
}

// statusNote says what an answer other than 200 means for a goroutine dump; withToken says
// whether the metrics token was sent.
func statusNote(code int, t target.Target, withToken bool) string {
	text := fmt.Sprintf("%d %s", code, http.StatusText(code))
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		if t.Kind == target.KindAPIServer || t.Via == target.ViaDirect {
			return text + ": may not get /debug/pprof/* (nonResourceURL)"
		}
		if t.Via == target.ViaProxy {
			return text + ": the endpoint demands credentials, which the API server's proxy never forwards (--token-from-sa reads through a port-forward)"
		}
		if !withToken {
			return text + ": the endpoint demands credentials, and none were sent (the metrics token goes to the metrics endpoint only)"
		}
		return text + ": the token may not get /debug/pprof/* (nonResourceURL)"
	case http.StatusNotFound:
		return text + ": the process does not serve net/http/pprof there"
	}
	return text
}

// endpointName names the endpoint as outputs show it.
func endpointName(t target.Target) string {
	path, _, _ := strings.Cut(t.Path, "?")
	return t.ID() + path
}
