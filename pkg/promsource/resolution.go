package promsource

import (
	"context"
	"fmt"
	"time"
)

// Resolutions of the data a server holds: raw samples as scraped, and Thanos' downsampled
// levels (one aggregate every 5 minutes, every hour).
const (
	Raw         time.Duration = 0
	FiveMinutes               = 5 * time.Minute
	OneHour                   = time.Hour
)

// ResolutionChoices are the values --max-source-resolution takes.
var ResolutionChoices = []string{"auto", "raw", "5m", "1h"}

// minPointsPerWindow is how many points of a resolution a window must span for that
// resolution to be allowed: fewer, and a rate over the window rests on one or two
// aggregates.
const minPointsPerWindow = 5

// AutoResolution is the coarsest resolution a window may be judged on: raw under 25
// minutes, 5m from 25 minutes, 1h from 5 hours (each at least five points in the window).
func AutoResolution(window time.Duration) time.Duration {
	switch {
	case window >= minPointsPerWindow*OneHour:
		return OneHour
	case window >= minPointsPerWindow*FiveMinutes:
		return FiveMinutes
	}
	return Raw
}

// ParseResolution reads a --max-source-resolution value: auto chooses from the window
// (AutoResolution); raw, 5m and 1h are taken as given.
func ParseResolution(s string, window time.Duration) (time.Duration, error) {
	switch s {
	case "auto", "":
		return AutoResolution(window), nil
	case "raw", "0s":
		return Raw, nil
	case "5m":
		return FiveMinutes, nil
	case "1h":
		return OneHour, nil
	}
	return 0, fmt.Errorf("--max-source-resolution %q: give auto, raw, 5m or 1h", s)
}

// ResolutionParam is a resolution as Thanos Query's max_source_resolution reads it.
func ResolutionParam(r time.Duration) string {
	switch r {
	case Raw:
		return "0s"
	case OneHour:
		return "1h"
	}
	return "5m"
}

// ResolutionWords says at which resolution a window was judged: Thanos does not say which
// data it answered from, only the coarsest it was allowed is known.
func ResolutionWords(r time.Duration) string {
	if r == Raw {
		return "raw"
	}
	return fmt.Sprintf("up to %s: downsampled data may have been used", ResolutionParam(r))
}

// mayDownsample reports whether the server may have answered from downsampled data: it is a
// Thanos Query (it lists stores), or that could not be told. Prometheus, Mimir and
// VictoriaMetrics answer raw whatever max_source_resolution says, so nothing is said of it.
func (s *Source) mayDownsample(ctx context.Context) bool {
	has, ok := s.cfg.Client.HasStores(ctx)
	return has || !ok
}
