package promsource

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// downsampledAfter is how old data must be before Thanos' compactor can have downsampled it to
// each resolution: it makes 5m data of blocks spanning 40 hours, 1h data of blocks spanning
// 10 days (and refuses a retention that would delete data before its coarser copy exists).
// Data younger than that is only held at the finer resolution.
var downsampledAfter = map[time.Duration]time.Duration{
	FiveMinutes: 40 * time.Hour,
	OneHour:     10 * 24 * time.Hour,
}

// nextCoarser is the resolution after r (raw, 5m, 1h); ok is false after 1h.
func nextCoarser(r time.Duration) (next time.Duration, ok bool) {
	switch r {
	case Raw:
		return FiveMinutes, true
	case FiveMinutes:
		return OneHour, true
	}
	return 0, false
}

// coarser is the resolution to ask again at when nothing was found at the window's end in the
// data of the resolution auto chose: the next coarser, when the window ends long enough ago
// for data of that resolution to exist (and so for the finer data to have been deleted past
// its retention) and the server is one that downsamples (Thanos Query). ok is false when no
// retry is due: the user chose the resolution, there is none coarser, the window is too
// recent, or the server answers raw whatever it is asked.
func (s *Source) coarser(ctx context.Context) (time.Duration, bool) {
	if !s.cfg.AutoResolution {
		return 0, false
	}
	next, ok := nextCoarser(s.cfg.MaxSourceResolution)
	if !ok {
		return 0, false
	}
	if s.age() < downsampledAfter[next] {
		return 0, false
	}
	return next, s.mayDownsample(ctx)
}

// age is how long ago the window ends.
func (s *Source) age() time.Duration {
	now := s.cfg.Now
	if now.IsZero() {
		now = time.Now()
	}
	return now.Sub(s.cfg.At)
}

// coarserHint is what the error of finding no targets adds when data coarser than the
// coarsest asked for may hold them: the window ends long enough ago for it to exist, and the
// server is one that downsamples. Thanos keeps coarser data longer, and auto asks only one
// level coarser than the window chose: a window too short for that data (fewer than
// minPointsPerWindow of its points, each end an aggregate of more than the window) is not
// judged on it behind the user's back; the hint says how long a window is. "" when no hint
// is due.
func (s *Source) coarserHint(ctx context.Context, coarsest time.Duration) string {
	next, ok := nextCoarser(coarsest)
	if !ok || s.age() < downsampledAfter[next] || !s.mayDownsample(ctx) {
		return ""
	}
	p := ResolutionParam(next)
	return fmt.Sprintf("; data of resolution %s may hold them (Thanos keeps coarser data longer): --max-source-resolution auto allows it "+
		"for a --window of %s or more (%d points of %s)", p, shortDuration(minPointsPerWindow*next), minPointsPerWindow, p)
}

// shortDuration renders d without its zero minutes and seconds (5h, 25m).
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
