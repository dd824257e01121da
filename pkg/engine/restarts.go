package engine

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// restarts says, per target read twice, which restarted between its samples and what its
// figures are taken over instead of the window (see findings.Read).
func restarts(results []source.Result) []string {
	var out []string
	for _, r := range results {
		if len(r.Samples) < 2 {
			continue
		}
		first, last := r.Samples[0], r.Samples[len(r.Samples)-1]
		prev, cur := health.FromFamilies(first.Families, first.Time), health.FromFamilies(last.Families, last.Time)
		why := health.Restarted(prev, cur)
		if why == "" {
			continue
		}
		if r.ResetsCounted {
			out = append(out, fmt.Sprintf("%s restarted within the window (%s): the server's raw samples count the work of both processes", r.ID(), why))
			continue
		}
		over := "only its lifetime figures are shown (no rates: its start time is unknown or before the first sample)"
		if _, w, ok := health.SinceStart(prev, cur); ok {
			over = fmt.Sprintf("its figures are over the %s since the new process started, not the window", w.Round(100e6))
		}
		out = append(out, fmt.Sprintf("%s restarted between its samples (%s): %s", r.ID(), why, over))
	}
	return out
}
