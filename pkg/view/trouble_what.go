package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// symptom is how the summary says what a check found: words, and the evidence whose value is
// its key figure (the first of names the finding has), put in the words' %s. queue adds the
// queue's wait and depth as the report measured them.
type symptom struct {
	words, bare string
	names       []string
	queue       bool
}

// symptoms say the checks; a check not listed is said by its title.
var symptoms = map[string]symptom{
	"scrape-failed":        {words: "metrics not read: %s", bare: "metrics not read", names: []string{"error"}},
	"no-workqueue-metrics": {bare: "no workqueue metrics"},
	"stuck-worker":         {words: "a worker stuck for %s", bare: "a worker stuck", names: []string{"longest running item"}, queue: true},
	"reconcile-panics":     {words: "%s reconcile panics", bare: "reconciles panic", names: []string{"reconcile panics"}},
	"reconcile-timeouts":   {words: "%s reconciles timed out", bare: "reconciles time out", names: []string{"reconcile timeouts"}},
	"retry-storm":          {words: "%s of reconciles fail", bare: "reconciles fail and retry", names: []string{"error ratio", "error ratio since the process started"}},
	"lifetime-failures":    {words: "%s of reconciles failed since start", bare: "most reconciles failed since start", names: []string{"error ratio since the process started"}},
	"persistent-failures":  {bare: "objects keep failing", queue: true},
	"hot-loop":             {bare: "requeue hot loop", queue: true},
	"client-throttling":    {words: "client rate limiter waits %s", bare: "client rate limiter waits", names: []string{"mean rate-limiter wait", "longest wait logged"}},
	"cache-sync-lag":       {bare: "informer cache lags the API server"},
	"memory-pressure":      {words: "memory near the limit (%s)", bare: "memory near the limit", names: []string{"last termination reason", "ratio"}},
	"workers-saturated":    {bare: "workers saturated", queue: true},
	"under-provisioned":    {bare: "too few workers for the load", queue: true},
	"priority-starvation":  {bare: "low-priority items starve", queue: true},
	"slow-reconcile":       {words: "slow reconciles, work p99 %s", bare: "slow reconciles", names: []string{"work p99"}, queue: true},
	"backlog-growing":      {bare: "backlog growing", queue: true},
	"backlog-high":         {bare: "deep backlog", queue: true},
	"queue-wait-slo":       {words: "%s of waits over the objective", bare: "queue-wait objective broken", names: []string{"share over"}, queue: true},
	"spec-latency-slo":     {bare: "spec-latency objective broken"},
	"restarts":             {words: "%s restarts", bare: "restarts", names: []string{"restarts"}},
	"leader-election":      {bare: "leader election problem"},
	"webhook-slows-writes": {bare: "writes wait in an admission webhook", queue: true},
	"server-throttling":    {words: "%s answers 429 from the API server", bare: "the API server throttles it", names: []string{"429 answers", "rejected (429)"}},
	"flowschema-waits":     {bare: "requests wait in API Priority and Fairness"},
	"not-syncing":          {bare: "stopped syncing"},
}

// whatOf says what f found, with its key figure; m is its queue's harm.
func whatOf(f findings.Finding, m harm) string {
	s, ok := symptoms[f.Check]
	if !ok {
		return strings.ToLower(f.Title[:1]) + f.Title[1:]
	}
	what := s.bare
	for _, n := range s.names {
		if v, ok := evidenceValue(f, n); ok && s.words != "" {
			what = fmt.Sprintf(s.words, v)
			break
		}
	}
	if s.queue && f.Queue != "" {
		if m.wait >= 0 {
			what += ", queue p99 " + seconds(m.wait)
		}
		if m.depth > 0 {
			what += fmt.Sprintf(", %.0f waiting", m.depth)
		}
	}
	return what
}

// evidenceValue is the value of f's first evidence named name (or whose name starts with name
// and a space), without what follows it in brackets or after a colon.
func evidenceValue(f findings.Finding, name string) (string, bool) {
	for _, e := range f.Evidence {
		if e.Name == name || strings.HasPrefix(e.Name, name+" ") {
			return strings.TrimSpace(e.Value), e.Value != ""
		}
	}
	return "", false
}

// seconds writes a duration for the summary: 9.2s, 450ms, 1m31s.
func seconds(v float64) string {
	d := time.Duration(v * float64(time.Second))
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}
