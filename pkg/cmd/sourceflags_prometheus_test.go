package cmd

import (
	"testing"
	"time"
)

func TestParseAt(t *testing.T) {
	now := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                     now,
		"now":                  now,
		"-2h":                  now.Add(-2 * time.Hour),
		"-90m":                 now.Add(-90 * time.Minute),
		"2026-03-02T03:00:00Z": time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC),
	} {
		got, err := ParseAt(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseAt(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"+1h", "2026-03-03T00:00:00Z", "yesterday", "-2x", "03:00"} {
		if _, err := ParseAt(bad, now); err == nil {
			t.Errorf("ParseAt(%q) accepted", bad)
		}
	}
}
