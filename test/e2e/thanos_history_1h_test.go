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

// History kept only at 1h, as a fleet keeps months of it: backfilled blocks of one
// controller's queue (2 adds/s, depth 3) over the last 11 days of a 14-day range of thanos
// compact that ended 11 to 25 days ago, and a day past it (which closes the range), are
// compacted into one block of 11 days, downsampled to 5m then to 1h, with raw data kept 2
// days and 5m data 10 days: only the 1h block is left. `queues --window 216h` judges the
// window on it (the default --max-source-resolution auto allows 1h from a 5h window) with
// the backfilled rate, and says at which resolution and what it costs; forced to 5m it
// finds nothing and is not asked again. A 1h window, for which auto chooses 5m, finds
// nothing there, is asked once more allowing 1h and judged there, saying so. A 20m window
// chooses raw, is asked once more allowing 5m, finds nothing there either: the error says
// both, and that 1h data may hold the targets (a 20m window is not judged on 1h aggregates
// unless the user allows it; allowed, the run says how far off its rates may be).
func TestThanosOneHourHistory(t *testing.T) {
	crowd(t)
	const ns, rate, depth = "e2e-history-1h", historyRate, historyDepth
	day := 24 * time.Hour
	// The range ends at least 11 days ago: its 5m data is past the 10 days kept. One sample
	// every 5 minutes (promtool's time is most of the test's): each 1h aggregate still sums
	// twelve. Raw and 5m data deleted: only 1h is left.
	end := promserver.FortnightBefore(time.Now().Add(-11 * day))
	hist := downsampledHistory(t, ns, end.Add(-11*day), end.Add(day), 5*time.Minute, promserver.Retention{Raw: 2 * day, FiveMinutes: 10 * day}, 3600000)
	at := end.Add(-day)
	long := []string{"--prometheus", hist.Query, "-n", ns, "--window", "216h", "--at", at.Format(time.RFC3339)}

	for _, res := range []string{"auto", "1h"} {
		l, r := queuesJSON(t, append(long, "--max-source-resolution", res)...)
		if r.Code != 0 || len(l.Items) != 1 || l.Items[0].Queue != "widgets" || l.Items[0].AddsPerSecond == nil || l.Items[0].Depth == nil {
			t.Fatalf("--window 216h --max-source-resolution %s: exit %d, want the one queue widgets with adds/s and depth:\n%s", res, r.Code, r)
		}
		// Each end of the window is a 1h aggregate: at most an hour of adds off out of 9
		// days, under 0.5%.
		if got := *l.Items[0].AddsPerSecond; math.Abs(got-rate) > rate*0.005 {
			t.Errorf("--window 216h --max-source-resolution %s: widgets at %.5f adds/s, want the backfilled %.1f within 0.5%%", res, got, rate)
		}
		if got := *l.Items[0].Depth; got != depth {
			t.Errorf("--window 216h --max-source-resolution %s: widgets at depth %g, want %g", res, got, depth)
		}
		const want = "up to 1h: downsampled data may have been used"
		if said := resolutionOf(t, r.Stdout); said != want {
			t.Errorf("--window 216h --max-source-resolution %s: -o json says resolution %q, want %q", res, said, want)
		}
		if !strings.Contains(r.Stderr, "judged on data of resolution "+want) || !strings.Contains(r.Stderr, "may be a 1h aggregate") ||
			strings.Contains(r.Stderr, "spans fewer than") {
			t.Errorf("--window 216h --max-source-resolution %s: stderr does not say the resolution and its loss, or calls 9 days short:\n%s", res, r.Stderr)
		}
	}
	r := ctrldiag(t, append([]string{"queues"}, long...)...)
	if flat := strings.Join(strings.Fields(r.Stdout), " "); r.Code != 0 ||
		!strings.Contains(flat, "Source resolution: up to 1h (Thanos Query may answer from downsampled data: each end of the window may be a 1h aggregate") {
		t.Errorf("--window 216h: exit %d, the table does not say the source resolution and its loss:\n%s", r.Code, r)
	}
	// Data of a coarser resolution than any asked for may hold the targets: the error says so.
	const hint = "data of resolution 1h may hold them (Thanos keeps coarser data longer): " +
		"--max-source-resolution auto allows it for a --window of 5h or more (5 points of 1h)"
	_, r = queuesJSON(t, append(long, "--max-source-resolution", "5m")...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "holds no controller series") || strings.Contains(r.Stderr, "again") ||
		!strings.Contains(strings.Join(strings.Fields(r.Stderr), " "), hint) {
		t.Errorf("--window 216h --max-source-resolution 5m: exit %d, want the error that no series are there (5m data deleted), "+
			"not asked again, and that 1h data may hold them:\n%s", r.Code, r)
	}

	// A 1h window chooses 5m, deleted here: auto asks once more allowing 1h and judges the
	// window there, saying so.
	hour := []string{"--prometheus", hist.Query, "-n", ns, "--window", "1h", "--at", at.Format(time.RFC3339)}
	l, r := queuesJSON(t, hour...)
	if r.Code != 0 || len(l.Items) != 1 || l.Items[0].AddsPerSecond == nil || l.Items[0].Depth == nil {
		t.Fatalf("--window 1h, auto: exit %d, want the one queue widgets with adds/s and depth read from the 1h data:\n%s", r.Code, r)
	}
	// Each end is one hourly average of a steady rate: two consecutive ones are an hour of
	// adds apart. Both ends in one aggregate would say 0, two hours apart twice the rate.
	if got := *l.Items[0].AddsPerSecond; math.Abs(got-rate) > rate*0.1 {
		t.Errorf("--window 1h, auto: widgets at %.5f adds/s, want the backfilled %.1f within 10%%", got, rate)
	}
	if got := *l.Items[0].Depth; got != depth {
		t.Errorf("--window 1h, auto: widgets at depth %g, want %g", got, depth)
	}
	if want := "1h: downsampled data used (data up to 5m held no series at the window's end)"; resolutionOf(t, r.Stdout) != want {
		t.Errorf("--window 1h, auto: -o json says resolution %q, want %q", resolutionOf(t, r.Stdout), want)
	}
	if flat := strings.Join(strings.Fields(r.Stderr), " "); !strings.Contains(flat, "asked again with max_source_resolution=1h") ||
		!strings.Contains(flat, "is a 1h aggregate") || !strings.Contains(flat, "rates may be off by up to 100 % (1h of counts over 1h)") {
		t.Errorf("--window 1h, auto: stderr does not say it asked again allowing 1h and what that costs a window of one aggregate:\n%s", r.Stderr)
	}

	// Forced to 1h, a 20m window is judged on aggregates over 1h: its ends are an hour of
	// adds apart (6 adds/s here, not 2), and the run says by how much it may be off.
	short := []string{"--prometheus", hist.Query, "-n", ns, "--window", "20m", "--at", at.Format(time.RFC3339)}
	_, r = queuesJSON(t, append(short, "--max-source-resolution", "1h")...)
	if flat := strings.Join(strings.Fields(r.Stderr), " "); r.Code != 0 || !strings.Contains(flat, "the window (20m) spans fewer than 5 points of 1h data") ||
		!strings.Contains(flat, "rates may be off by up to 300 % (1h of counts over 20m)") {
		t.Errorf("--window 20m --max-source-resolution 1h: exit %d, want the window judged and its loss said:\n%s", r.Code, r)
	}
	_, r = queuesJSON(t, short...)
	if flat := strings.Join(strings.Fields(r.Stderr), " "); r.Code == 0 || !strings.Contains(flat, "holds no controller series") ||
		!strings.Contains(flat, "asked with max_source_resolution=0s and again with 5m") || !strings.Contains(flat, hint) {
		t.Errorf("--window 20m, auto: exit %d, want the error that no series are there at raw nor 5m, and that 1h data may hold them:\n%s", r.Code, r)
	}
}

// resolutionOf is the resolution a -o json output says it judged at.
func resolutionOf(t *testing.T, stdout string) string {
	t.Helper()
	var said struct {
		Resolution string `json:"resolution"`
	}
	if err := json.Unmarshal([]byte(stdout), &said); err != nil {
		t.Errorf("-o json: %v", err)
	}
	return said.Resolution
}
