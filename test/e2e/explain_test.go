//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// explain prints a check's page through kubectl, by code, with its thresholds and what to
// change, without reading the cluster.
func TestExplainCheck(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "explain", "CD208")
	for _, want := range []string{"CD208 workers-saturated: All workers busy", "Severity: warning",
		"saturatedQueueWait=1s", "risingDepth=10", "MaxConcurrentReconciles"} {
		if r.Code != 0 || !strings.Contains(r.Stdout, want) {
			t.Errorf("explain CD208 should exit 0 and say %q:\n%s", want, r)
		}
	}
}

// explain thresholds lists every threshold with its default.
func TestExplainThresholds(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "explain", "thresholds")
	for _, want := range []string{"stuckAfter", "30s", "memoryRatio", "0.8", "targetQueueWait"} {
		if r.Code != 0 || !strings.Contains(r.Stdout, want) {
			t.Errorf("explain thresholds should exit 0 and list %q:\n%s", want, r)
		}
	}
}

// An unknown topic is a usage error that names the topic meant.
func TestExplainUnknownTopic(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "explain", "stauts")
	if r.Code != 2 || r.Stdout != "" || !strings.Contains(r.Stderr, `no topic "stauts" (did you mean status?)`) {
		t.Errorf("explain stauts should exit 2 and suggest status:\n%s", r)
	}
}
