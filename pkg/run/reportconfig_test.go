package run

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// report's options become plain values, and a wrong one is an error in the command line
// that names the flag.
func TestReportConfig(t *testing.T) {
	cfg, err := newReportConfig(ReportOptions{Thresholds: findings.DefaultThresholds(), Since: 2 * time.Hour, TargetQueueWait: 250 * time.Millisecond,
		Workers: []string{"deployment=5"}, Generations: []string{"widgets.example.com/v1"}, ControllerKinds: []string{"reconciler=example.com/Widget"},
		MemoryLimit: "256Mi", IgnoreFile: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Thresholds.Since != findings.Duration(2*time.Hour) || cfg.Thresholds.TargetQueueWait != findings.Duration(250*time.Millisecond) ||
		cfg.Workers["deployment"] != 5 || len(cfg.Generations) != 1 || cfg.Generations[0].Resource != "widgets" ||
		cfg.ControllerKinds["reconciler"].Kind != "Widget" || cfg.MemoryLimitBytes != 256<<20 {
		t.Errorf("config: %+v", cfg)
	}
	for _, tc := range []struct {
		o    ReportOptions
		want string
	}{
		{ReportOptions{Since: -time.Hour}, "--since must be positive"},
		{ReportOptions{Workers: []string{"deployment=0"}}, "--workers"},
		{ReportOptions{Workers: []string{"deployment=100000"}}, "more than any process runs"},
		{ReportOptions{Generations: []string{"widgets"}}, "--generation-resource"},
		{ReportOptions{MemoryLimit: "-1Mi"}, "--memory-limit"},
		{ReportOptions{TargetQueueWait: time.Second, SLOQueueWait: 2 * time.Second}, "--target-queue-wait 1s and --slo queue-wait-p99=2s disagree"},
	} {
		_, err := newReportConfig(tc.o)
		var u interface{ Usage() bool }
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &u) || !u.Usage() {
			t.Errorf("%+v: %v, want a usage error with %q", tc.o, err, tc.want)
		}
	}
}

// --slo queue-wait-p99 and --target-queue-wait set the one objective: the same value twice is
// no conflict.
func TestSLOAndTargetQueueWaitAgree(t *testing.T) {
	th := findings.DefaultThresholds()
	th.TargetQueueWait = findings.Duration(2 * time.Second)
	cfg, err := newReportConfig(ReportOptions{Thresholds: th, TargetQueueWait: 2 * time.Second, SLOQueueWait: 2 * time.Second, IgnoreFile: "none"})
	if err != nil || cfg.Thresholds.TargetQueueWait != findings.Duration(2*time.Second) {
		t.Errorf("%v, %v", err, cfg.Thresholds.TargetQueueWait)
	}
}
