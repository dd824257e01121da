package findings

import (
	"fmt"
	"strings"
	"time"
)

// SLOQuantile is the quantile every service-level objective is written at: "queue wait p99 <=
// 1s". Its error budget is 1 - SLOQuantile of the samples (1 %).
const SLOQuantile = 0.99

// sloThresholds maps the objectives of --slo to the thresholds that hold them: one number per
// objective, which the capacity model, the headroom and the alerts use too.
var sloThresholds = map[string]string{
	"queue-wait-p99": "targetQueueWait",
	"spec-p99":       "targetSpecLatency",
}

// SLONames lists the objectives --slo takes, sorted.
func SLONames() []string { return []string{"queue-wait-p99", "spec-p99"} }

// SetSLO sets one objective from "name=duration" (--slo queue-wait-p99=1s): the threshold it
// stands for. An unknown name, or a duration that is not more than 0, is an error saying the
// flag, the value and what is allowed.
func (t *Thresholds) SetSLO(kv string) error {
	name, value, ok := strings.Cut(strings.TrimSpace(kv), "=")
	if !ok {
		return fmt.Errorf("--slo %q: use name=duration, e.g. queue-wait-p99=1s; names: %s", kv, strings.Join(SLONames(), ", "))
	}
	threshold, known := sloThresholds[name]
	if !known {
		if meant := nearestObjective(name); meant != "" {
			return fmt.Errorf("--slo %s: unknown objective %q (did you mean %s?)", kv, name, meant)
		}
		return fmt.Errorf("--slo %s: unknown objective %q; names: %s", kv, name, strings.Join(SLONames(), ", "))
	}
	if err := t.setValue(threshold, value); err != nil {
		return fmt.Errorf("--slo %s: %w", kv, err)
	}
	return nil
}

// SLOValue is the duration "name=duration" sets when name is the objective asked for, and
// whether it does; the value is as SetSLO reads it (call SetSLO first to refuse a bad one).
func SLOValue(kv, objective string) (time.Duration, bool) {
	name, value, ok := strings.Cut(strings.TrimSpace(kv), "=")
	if !ok || name != objective {
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(value))
	return d, err == nil
}

// nearestObjective is the objective a mistyped name most likely meant: one it begins
// ("queue-wait" for queue-wait-p99), else the nearest by edits.
func nearestObjective(name string) string {
	for _, n := range SLONames() {
		if name != "" && strings.HasPrefix(n, strings.ToLower(name)) {
			return n
		}
	}
	return Nearest(name, SLONames())
}
