package promsource

import (
	"testing"
	"time"
)

// The resolution allowed leaves at least five points of it in the window: raw under 25
// minutes, 5m from 25 minutes, 1h from 5 hours; an explicit value is taken as given and an
// unknown one refused; the words say "raw" only when no downsampled data was allowed.
func TestResolution(t *testing.T) {
	for window, want := range map[time.Duration]time.Duration{
		10 * time.Minute: Raw, 25*time.Minute - time.Second: Raw, 25 * time.Minute: FiveMinutes,
		5*time.Hour - time.Second: FiveMinutes, 5 * time.Hour: OneHour, 7 * 24 * time.Hour: OneHour,
	} {
		if got := AutoResolution(window); got != want {
			t.Errorf("AutoResolution(%s) = %s, want %s", window, got, want)
		}
		if got, err := ParseResolution("auto", window); err != nil || got != want {
			t.Errorf("ParseResolution(auto, %s) = %s, %v; want %s", window, got, err, want)
		}
	}
	for s, want := range map[string]time.Duration{"raw": Raw, "5m": FiveMinutes, "1h": OneHour} {
		if got, err := ParseResolution(s, 7*24*time.Hour); err != nil || got != want {
			t.Errorf("ParseResolution(%s) = %s, %v; want %s", s, got, err, want)
		}
	}
	if _, err := ParseResolution("10m", time.Hour); err == nil {
		t.Error("ParseResolution(10m) accepted")
	}
	for r, want := range map[time.Duration]string{Raw: "0s", FiveMinutes: "5m", OneHour: "1h"} {
		if got := ResolutionParam(r); got != want {
			t.Errorf("ResolutionParam(%s) = %q, want %q", r, got, want)
		}
	}
	if ResolutionWords(Raw) != "raw" || ResolutionWords(FiveMinutes) != "up to 5m: downsampled data may have been used" {
		t.Errorf("words: %q, %q", ResolutionWords(Raw), ResolutionWords(FiveMinutes))
	}
}
