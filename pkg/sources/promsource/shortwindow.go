package promsource

import (
	"fmt"
	"time"
)

// shortWindowWarning is what the run says when the window spans fewer than minPointsPerWindow
// points of r, the coarsest data it may be judged on (an explicit --max-source-resolution, or
// auto's second question one level coarser): each end of the window may be read from an
// aggregate over r, so a counter's increase over the window may be off by up to r's worth of
// counts, r/window of the rate. "" when the window is long enough for r.
func (s *Source) shortWindowWarning(r time.Duration) string {
	if r == Raw || s.cfg.Window >= minPointsPerWindow*r {
		return ""
	}
	p := ResolutionParam(r)
	return fmt.Sprintf("Prometheus at %s: the window (%s) spans fewer than %d points of %s data: where Thanos Query answers from it, "+
		"each end of the window is read from an aggregate over %s, so rates may be off by up to %.0f %% (%s of counts over %s); "+
		"a --window of %s or more is judged on it with less loss",
		s.cfg.Client.Name(), shortDuration(s.cfg.Window), minPointsPerWindow, p, p, 100*float64(r)/float64(s.cfg.Window), p,
		shortDuration(s.cfg.Window), shortDuration(minPointsPerWindow*r))
}
