package collect

import (
	"context"
	"errors"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

var _ source.Profiler = (*Pages)(nil)

// noEndpoint is the note of a pod that shows no pprof endpoint.
const noEndpoint = "no pprof endpoint: no port named pprof, profiler or debug, no pprof address in the " +
	"container's arguments; --pprof-port names one"

// Goroutines reads the goroutine dump of a cluster target through the way its metrics were
// read (the proxy falling back to a port-forward as for metrics), with the metrics credentials
// only when the dump is served on the metrics endpoint itself. Saved pages and URLs have none:
// nil.
func (p *Pages) Goroutines(ctx context.Context, t model.Target, w goroutines.Want, b goroutines.Bounds) *goroutines.Profile {
	c := p.conn
	if c == nil || (t.Target.Kind != target.KindPod && t.Target.Kind != target.KindAPIServer) {
		return nil
	}
	ep, reason, ok := goroutines.Endpoint(t.Target, t.Pod, w)
	if !ok {
		return &goroutines.Profile{Note: noEndpoint}
	}
	tr, fallback, token := c.profileWays(t.Target, ep)
	prof := goroutines.Fetch(ctx, tr, ep, b, token)
	if fallback != nil && len(prof.Groups) == 0 && prof.Goroutines == 0 && unreachableNote(prof.Note) && !errors.Is(ctx.Err(), context.Canceled) {
		ep.Via = target.ViaPortForward
		prof = goroutines.Fetch(ctx, fallback, ep, b, token)
	}
	prof.Reason = reason
	return prof
}

// profileWays are the transport that reads the dump at ep, the one to try when the API
// server's proxy cannot reach the pod (nil for none), and the token they send ("" for none):
// the metrics token goes only to the metrics endpoint, where the user pointed it.
func (c *clusterConn) profileWays(metrics, ep target.Target) (tr, fallback scrape.Transport, token string) {
	forward := c.forward
	token = c.cfg.HTTP.Token
	if !goroutines.MetricsEndpoint(metrics, ep) {
		forward, token = c.bare, ""
	}
	switch ep.Via {
	case target.ViaProxy:
		if _, denied := c.denied[way{target.ViaPortForward, ep.Namespace}]; !denied && (c.cfg.Via == target.ViaAuto || c.cfg.Via == "") {
			fallback = forward
		}
		return c.proxy, fallback, token
	case target.ViaPortForward:
		return forward, nil, token
	}
	return c.direct, nil, token
}

// unreachableNote says whether a note is the API server failing to reach the pod (the proxy's
// 502/503), after which a port-forward is tried as for metrics.
func unreachableNote(note string) bool {
	return strings.Contains(note, "502") || strings.Contains(note, "503") || strings.Contains(note, "500")
}
