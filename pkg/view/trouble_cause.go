package view

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// causeOf is the cause the findings fs of one entry (and those about its whole target) name
// for what, its worst symptom: a cause finding's subject with its figure (a webhook, a
// priority level, the client's rate limiter, the objects that fail), else where a goroutine
// dump shows the workers blocked, else the failing objects or the Warning events and log
// lines a finding cites. "" when none names one: the summary claims no cause the findings do
// not.
func causeOf(fs []findings.Finding, what findings.Finding) string {
	for _, f := range fs {
		if f.Queue == "" && what.Queue != "" && findings.IsCause(f.Check) {
			if c := causeFinding(f); c != "" {
				return c + " (the whole target)"
			}
			continue
		}
		if findings.IsCause(f.Check) && f.Code != what.Code {
			if c := causeFinding(f); c != "" {
				return c
			}
		}
	}
	for _, f := range fs {
		if v, ok := evidenceValue(f, "goroutines"); ok {
			return "workers blocked in " + v
		}
	}
	for _, f := range fs {
		if contextOnly[f.Check] {
			continue
		}
		if c := failingObjects(f); c != "" {
			return c
		}
	}
	if what.Check == "not-syncing" {
		return lastSync(what)
	}
	return ""
}

// lastSync says when a not-syncing finding's controller last synced, and its period: "last
// sync: none since the process started 20s ago, period 4s".
func lastSync(f findings.Finding) string {
	last, ok := evidenceValue(f, "last successful sync")
	if !ok {
		return ""
	}
	if period, ok := evidenceValue(f, "period"); ok {
		period, _, _ = strings.Cut(period, " (")
		return "last sync: " + last + ", period " + period
	}
	return "last sync: " + last
}

// contextOnly are the checks whose failing objects are context, not a cause: a stuck or
// saturated queue cites what its log says failed, which may be why or may have stopped
// because the worker blocked.
var contextOnly = map[string]bool{"stuck-worker": true, "workers-saturated": true}

// contextOf is the failing objects the log names on a stuck or saturated finding of fs.
func contextOf(fs []findings.Finding) string {
	for _, f := range fs {
		if contextOnly[f.Check] {
			if c := failingObjects(f); c != "" {
				return c
			}
		}
	}
	return ""
}

// webhookOf is the name of the admission webhook a webhook-slows-writes finding names.
func webhookOf(f findings.Finding) (string, bool) {
	hook, ok := evidenceValue(f, "webhook")
	hook, _, _ = strings.Cut(hook, " in ")
	return hook, ok
}

// causeFinding says a cause finding's subject and figure, "" when its evidence lacks them.
func causeFinding(f findings.Finding) string {
	first := func(v string) string { // "2.1s (in the 1s-2.5s bucket)" -> "2.1s"
		v, _, _ = strings.Cut(v, " (")
		return v
	}
	switch f.Check {
	case "webhook-slows-writes":
		hook, ok := webhookOf(f)
		if !ok {
			return ""
		}
		if p90, ok := evidenceValue(f, "webhook latency p90 on"); ok {
			return fmt.Sprintf("admission webhook %s, p90 %s", hook, first(p90))
		}
		return "admission webhook " + hook
	case "flowschema-waits":
		level, ok := evidenceValue(f, "priority level")
		if !ok {
			return ""
		}
		if p99, ok := evidenceValue(f, "queue wait p99 on"); ok {
			return fmt.Sprintf("APF priority level %s, wait p99 %s", level, first(p99))
		}
		return "APF priority level " + level
	case "server-throttling":
		n, ok := evidenceValue(f, "429 answers")
		if !ok {
			n, ok = evidenceValue(f, "rejected (429)")
		}
		if ok {
			return "the API server throttles it: " + n + " answers 429"
		}
		return "the API server throttles it"
	case "client-throttling":
		if v, ok := evidenceValue(f, "mean rate-limiter wait"); ok {
			return "the client's rate limiter, mean wait " + v
		}
		if v, ok := evidenceValue(f, "longest wait logged"); ok {
			return "the client's rate limiter, waits up to " + v
		}
		return "the client's rate limiter"
	case "request-latency":
		return "slow API requests"
	case "api-errors":
		return "API server errors"
	case "persistent-failures":
		if c := failingObjects(f); c != "" {
			return c
		}
		return "objects that keep failing"
	}
	return ""
}

// failingObjects says which objects f cites as failing: the kind's failed count and reasons
// from their status, else the first Warning event or log line it cites; "" when it cites none.
func failingObjects(f findings.Finding) string {
	for i, e := range f.Evidence {
		if !strings.HasPrefix(e.Name, "failed ") || !strings.Contains(e.Value, " of ") {
			continue
		}
		n, _, _ := strings.Cut(e.Value, " of ")
		if n == "0" {
			break
		}
		var reasons []string
		for _, r := range f.Evidence[i+1:] {
			_, reason, ok := strings.Cut(r.Name, " ")
			count, _, okc := strings.Cut(r.Value, ": ")
			if !ok || !okc || !strings.Contains(r.Name, "=") {
				break
			}
			reasons = append(reasons, fmt.Sprintf("%s (%s)", reason, count))
		}
		c := fmt.Sprintf("%s %s fail", n, strings.TrimPrefix(e.Name, "failed "))
		if len(reasons) > 0 {
			c += ": " + strings.Join(reasons, ", ")
		}
		return c
	}
	for _, e := range f.Evidence {
		if reason, ok := strings.CutPrefix(e.Name, "Warning event "); ok {
			obj, _, _ := strings.Cut(e.Value, ", last ")
			obj, _, _ = strings.Cut(obj, ": \"")
			return fmt.Sprintf("Warning events %s: %s", reason, obj)
		}
		if what, ok := strings.CutPrefix(e.Name, "log: "); ok {
			obj, _, _ := strings.Cut(e.Value, ", last ")
			obj, _, _ = strings.Cut(obj, ": \"")
			return fmt.Sprintf("log %q on %s", what, obj)
		}
	}
	return ""
}
