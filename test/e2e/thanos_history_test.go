//go:build e2e

package e2e

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// History 30 days old, as a fleet keeps it: backfilled blocks of one controller's queue (2
// adds/s, depth 3) from 40 to 26 days ago, compacted and downsampled to 5m by thanos compact
// with raw data deleted, read by a Thanos Store through Thanos Query. `queues --window 168h
// --at` 30 days ago judges the window on the downsampled data (allowed by the default
// --max-source-resolution auto) with the backfilled rate, and says so; forced to raw, it
// finds nothing there (the raw data is gone), as Thanos Query's default would. The text
// outputs say the resolution too. A 20m window, for which auto chooses raw, finds nothing in
// raw data and is asked once more allowing 5m, and judged there.
func TestThanosDownsampledHistory(t *testing.T) {
	crowd(t)
	const ns, rate, depth = "e2e-history", historyRate, historyDepth
	at := time.Now().Add(-30 * 24 * time.Hour).Truncate(time.Hour)
	// From three days before the window's start: the first block, from the first sample to
	// the next range of 2 days, may span less than the 40 hours thanos compact downsamples
	// from, and its raw data is deleted; starting 3 days early leaves that gap before the
	// window, whatever the day the test runs (a start one day early left it over the window's
	// start on days when the first range ended under 40 hours on). Four days past the
	// instant asked about, so that the compactor closes its ranges; raw data deleted after 2
	// days, and no 1h yet.
	hist := downsampledHistory(t, ns, at.Add(-10*24*time.Hour), at.Add(4*24*time.Hour), time.Minute, promserver.Retention{Raw: 48 * time.Hour}, 300000)
	args := []string{"--prometheus", hist.Query, "-n", ns, "--window", "168h", "--at", at.UTC().Format(time.RFC3339)}

	for _, res := range []struct{ flag, want string }{
		{"auto", "up to 1h: downsampled data may have been used"},
		{"5m", "up to 5m: downsampled data may have been used"},
	} {
		l, r := queuesJSON(t, append(args, "--max-source-resolution", res.flag)...)
		if r.Code != 0 {
			t.Fatalf("--max-source-resolution %s: queues exit %d:\n%s", res.flag, r.Code, r)
		}
		if len(l.Items) != 1 || l.Items[0].Queue != "widgets" || l.Items[0].AddsPerSecond == nil || l.Items[0].Depth == nil {
			t.Fatalf("--max-source-resolution %s: want the one queue widgets with adds/s and depth:\n%s", res.flag, r)
		}
		// Each end of the window is a 5m aggregate: at most 5 minutes of adds off out of 7
		// days, under 0.1%.
		if got := *l.Items[0].AddsPerSecond; math.Abs(got-rate) > rate*0.001 {
			t.Errorf("--max-source-resolution %s: widgets at %.5f adds/s, want the backfilled %.1f within 0.1%%", res.flag, got, rate)
		}
		if got := *l.Items[0].Depth; got != depth {
			t.Errorf("--max-source-resolution %s: widgets at depth %g, want %g", res.flag, got, depth)
		}
		var said struct {
			Resolution string `json:"resolution"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &said); err != nil || said.Resolution != res.want {
			t.Errorf("--max-source-resolution %s: -o json says resolution %q (%v), want %q", res.flag, said.Resolution, err, res.want)
		}
		if !strings.Contains(r.Stderr, "judged on data of resolution "+res.want) {
			t.Errorf("--max-source-resolution %s: stderr does not say the resolution and its loss:\n%s", res.flag, r.Stderr)
		}
	}

	// The text outputs say the resolution under their table and header.
	for _, cmd := range []string{"queues", "report"} {
		r := ctrldiag(t, append([]string{cmd}, args...)...)
		if flat := strings.Join(strings.Fields(r.Stdout), " "); r.Code != 0 && cmd == "queues" ||
			!strings.Contains(flat, "Source resolution: up to 1h (Thanos Query may answer from downsampled data") {
			t.Errorf("%s: exit %d, the text output does not say the source resolution:\n%s", cmd, r.Code, r)
		}
	}

	_, r := queuesJSON(t, append(args, "--max-source-resolution", "raw")...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "holds no controller series") || strings.Contains(r.Stderr, "again") {
		t.Errorf("--max-source-resolution raw: exit %d, want the error that no series are there (raw data deleted), not asked again:\n%s", r.Code, r)
	}

	// A window under 25m chooses raw, deleted here: auto asks once more allowing 5m and
	// judges the window there, saying so; forced to raw it is not asked again.
	short := []string{"--prometheus", hist.Query, "-n", ns, "--window", "20m", "--at", at.UTC().Format(time.RFC3339)}
	l, r := queuesJSON(t, short...)
	if r.Code != 0 || len(l.Items) != 1 || l.Items[0].AddsPerSecond == nil || l.Items[0].Depth == nil {
		t.Fatalf("--window 20m, auto: exit %d, want the one queue widgets with adds/s and depth read from the 5m data:\n%s", r.Code, r)
	}
	// Each end of the window is a 5m aggregate, at most one of the four in the window off.
	if got := *l.Items[0].AddsPerSecond; math.Abs(got-rate) > rate*0.25 {
		t.Errorf("--window 20m, auto: widgets at %.5f adds/s, want the backfilled %.1f within 25%%", got, rate)
	}
	if got := *l.Items[0].Depth; got != depth {
		t.Errorf("--window 20m, auto: widgets at depth %g, want %g", got, depth)
	}
	var said struct {
		Resolution string `json:"resolution"`
	}
	if want := "5m: downsampled data used (data up to raw held no series at the window's end)"; json.Unmarshal([]byte(r.Stdout), &said) != nil || said.Resolution != want {
		t.Errorf("--window 20m, auto: -o json says resolution %q, want %q", said.Resolution, want)
	}
	if flat := strings.Join(strings.Fields(r.Stderr), " "); !strings.Contains(flat, "asked again with max_source_resolution=5m") ||
		!strings.Contains(flat, "rates may be off by up to 25 % (5m of counts over 20m)") {
		t.Errorf("--window 20m, auto: stderr does not say it asked again allowing 5m and what that may cost a window of four aggregates:\n%s", r.Stderr)
	}
	_, r = queuesJSON(t, append(short, "--max-source-resolution", "raw")...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "holds no controller series") || strings.Contains(r.Stderr, "again") {
		t.Errorf("--window 20m --max-source-resolution raw: exit %d, want no series and no second question:\n%s", r.Code, r)
	}
}
