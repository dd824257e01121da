package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

var _ source.FlagzReader = (*Pages)(nil)

// flagzAccept asks for the structured Flagz object, v1beta1 (Kubernetes 1.36) or v1alpha1
// before it: the text form says it is not meant to be parsed, and changes its separator from
// one answer to the next.
const flagzAccept = "application/json;as=Flagz;v=v1beta1;g=config.k8s.io,application/json;as=Flagz;v=v1alpha1;g=config.k8s.io"

// maxFlagzBytes bounds the answer: a Flagz object of a few hundred flags is some 20 kB.
const maxFlagzBytes = 1 << 20

// maxFlagValue bounds a kept value: the knobs' flags are numbers.
const maxFlagValue = 64

// Flagz reads the flags named keep from /flagz on the metrics endpoint of a cluster target,
// the way its metrics were read (the proxy falling back to a port-forward on the proxy's own
// errors), with the metrics credentials. It never fails: what went wrong is the note. Saved
// pages and URLs have none: nil.
func (p *Pages) Flagz(ctx context.Context, t model.Target, keep []string, timeout time.Duration) *knobs.Flagz {
	c := p.conn
	if c == nil || (t.Target.Kind != target.KindPod && t.Target.Kind != target.KindAPIServer) || len(keep) == 0 {
		return nil
	}
	ep := t.Target
	ep.Path = "/flagz"
	tr, fallback, token := c.profileWays(t.Target, ep)
	f := fetchFlagz(ctx, tr, ep, keep, timeout, token)
	if fallback != nil && f.Values == nil && unreachableNote(f.Note) && !errors.Is(ctx.Err(), context.Canceled) {
		ep.Via = target.ViaPortForward
		f = fetchFlagz(ctx, fallback, ep, keep, timeout, token)
	}
	return f
}

// fetchFlagz reads the Flagz object at t through tr and keeps the flags named keep.
func fetchFlagz(ctx context.Context, tr scrape.Transport, t target.Target, keep []string, timeout time.Duration, token string) *knobs.Flagz {
	f := &knobs.Flagz{Endpoint: t.ID() + t.Path}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	h := http.Header{}
	h.Set("Accept", flagzAccept)
	h.Set("User-Agent", "kubectl-ctrldiag")
	resp, err := tr.Get(ctx, t, h)
	if err != nil {
		f.Note = "not read: " + redact.ExcerptWithout(err.Error(), token)
		if ctx.Err() != nil {
			f.Note = fmt.Sprintf("not read within %s", timeout)
		}
		return f
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		f.Note = "not read: " + flagzStatus(resp.StatusCode, t)
		return f
	}
	var obj struct {
		Kind       string            `json:"kind"`
		APIVersion string            `json:"apiVersion"`
		Flags      map[string]string `json:"flags"`
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFlagzBytes+1))
	switch {
	case err != nil && ctx.Err() != nil:
		f.Note = fmt.Sprintf("not read within %s", timeout)
		return f
	case err != nil:
		f.Note = "not read: " + redact.ExcerptWithout(err.Error(), token)
		return f
	case len(body) > maxFlagzBytes:
		f.Note = fmt.Sprintf("not read: the answer is over %d MiB", maxFlagzBytes>>20)
		return f
	case mt != "application/json" || json.Unmarshal(body, &obj) != nil || obj.Kind != "Flagz" || !strings.HasPrefix(obj.APIVersion, "config.k8s.io/"):
		f.Note = "the answer is not a Flagz object (a text /flagz is not meant to be parsed)"
		return f
	}
	f.Values = map[string]string{}
	for name, v := range obj.Flags {
		if slices.Contains(keep, name) && len(v) <= maxFlagValue {
			f.Values[name] = v
		}
	}
	return f
}

// flagzStatus says what an answer other than 200 means for /flagz.
func flagzStatus(code int, t target.Target) string {
	text := fmt.Sprintf("%d %s", code, http.StatusText(code))
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		if t.Via == target.ViaProxy {
			return text + ": /flagz demands credentials, which the API server's proxy never forwards " +
				"(--token-from-sa with a ServiceAccount that may get /flagz, as system:monitoring may, reads it through a port-forward)"
		}
		return text + ": may not get /flagz (nonResourceURL; system:monitoring may from Kubernetes 1.36)"
	case http.StatusNotFound:
		return text + ": no /flagz (served by default from Kubernetes 1.36, before that with the ComponentFlagz feature gate)"
	case http.StatusNotAcceptable:
		return text + ": /flagz is served only as text, which is not meant to be parsed"
	}
	return text
}
