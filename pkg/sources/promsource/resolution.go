package promsource

import (
	"context"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
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

// ResolutionNote is what the text outputs say, as the source resolution under their header,
// when the server may have answered from downsampled data of resolution r (not raw): the
// coarsest allowed, and what it costs the figures.
func ResolutionNote(r time.Duration) string {
	p := ResolutionParam(r)
	return fmt.Sprintf("up to %s (Thanos Query may answer from downsampled data: each end of the window may be a %s aggregate, "+
		"so rates and quantiles may be off by what %s adds; --max-source-resolution raw forbids it)", p, p, p)
}

// mayDownsample reports whether the server may have answered from downsampled data: it is a
// Thanos Query (it lists stores), or that could not be told. Prometheus, Mimir and
// VictoriaMetrics answer raw whatever max_source_resolution says, so nothing is said of it.
// The server is asked once.
func (s *Source) mayDownsample(ctx context.Context) bool {
	if s.stores == nil {
		has, ok := s.cfg.Client.HasStores(ctx)
		may := has || !ok
		s.stores = &may
	}
	return *s.stores
}

// sayResolution puts in inv the resolution the window is judged at, and, where the server may
// have answered from downsampled data, what that costs: on stderr and in the text outputs.
func (s *Source) sayResolution(ctx context.Context, inv *source.Inventory) {
	r := s.cfg.MaxSourceResolution
	if r == Raw || !s.mayDownsample(ctx) {
		// Only Thanos Query answers from downsampled data; the others answered raw.
		inv.Resolution = ResolutionWords(Raw)
		return
	}
	p := ResolutionParam(r)
	if s.coarsened != nil {
		from := ResolutionParam(*s.coarsened)
		if *s.coarsened == Raw {
			from = "raw"
		}
		inv.Resolution = fmt.Sprintf("%s: downsampled data used (data up to %s held no series at the window's end)", p, from)
		inv.ResolutionNote = fmt.Sprintf("%s (data up to %s held no series at the window's end, so Thanos Query was asked again allowing %s: "+
			"each end of the window is a %s aggregate, so rates and quantiles may be off by what %s adds)", p, from, p, p, p)
		inv.Warnings = append(inv.Warnings, fmt.Sprintf("Prometheus at %s: no controller series at the window's end in data up to %s (max_source_resolution=%s; "+
			"Thanos deletes data of a resolution past its retention): asked again with max_source_resolution=%s, the window is judged on data of resolution %s: "+
			"the value at each end of the window is a %s aggregate, so rates and quantiles may be off by what that span adds; --max-source-resolution %s asks for that data only",
			s.cfg.Client.Name(), from, ResolutionParam(*s.coarsened), p, p, p, from))
		if w := s.shortWindowWarning(r); w != "" {
			inv.Warnings = append(inv.Warnings, w)
		}
		return
	}
	inv.Resolution = ResolutionWords(r)
	inv.ResolutionNote = ResolutionNote(r)
	inv.Warnings = append(inv.Warnings, fmt.Sprintf("Prometheus at %s: the window is judged on data of resolution %s (max_source_resolution=%s, which Thanos Query reads: "+
		"the value at each end of the window may be a %s aggregate, so rates and quantiles may be off by what that span adds; Prometheus and VictoriaMetrics ignore it and answer raw; "+
		"--max-source-resolution raw forbids downsampled data)", s.cfg.Client.Name(), ResolutionWords(r), p, p))
	if w := s.shortWindowWarning(r); w != "" {
		inv.Warnings = append(inv.Warnings, w)
	}
}
