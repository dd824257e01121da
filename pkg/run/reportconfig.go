package run

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/suppress"
)

// ReportOptions are report's own options as the user gave them, in plain values;
// newReportConfig checks them and makes the ReportConfig. An error names the flag, the value
// and what is allowed: it is an error in the command line.
type ReportOptions struct {
	// Thresholds are the thresholds given (--threshold, --thresholds); Since and
	// TargetQueueWait, when positive, override two of them (--since, --target-queue-wait).
	Thresholds      findings.Thresholds
	Since           time.Duration
	TargetQueueWait time.Duration
	// SLOQueueWait is the queue-wait objective --slo set (0: none), already in Thresholds: a
	// different --target-queue-wait next to it is an error, both being the one threshold.
	SLOQueueWait time.Duration
	// Workers are --workers QUEUE=N; Generations --generation-resource RESOURCE.GROUP/VERSION;
	// ControllerKinds --controller-kind NAME=GROUP/KIND.
	Workers         []string
	Generations     []string
	ControllerKinds []string
	// MemoryLimit is --memory-limit (a quantity such as 256Mi; "" for none).
	MemoryLimit string
	// IgnoreFile is --ignore-file ("" for the default file when present, "none" for none).
	IgnoreFile string
	// FailOn is the level of --fail-on the report's findings are judged against.
	FailOn findings.FailOnLevel
	// NoProfile is --no-profile; PprofPort --pprof-port (0: found from the pod).
	NoProfile bool
	PprofPort int32
	// NoLogs is --no-logs: the controllers' logs are not read.
	NoLogs bool
}

// newReportConfig checks o and makes report's configuration (without the reading, which the
// opened source says). Its error is one in the command line (exit 2).
func newReportConfig(o ReportOptions) (ReportConfig, error) {
	cfg, err := checkReportOptions(o)
	if err != nil {
		return ReportConfig{}, optionError{err}
	}
	return cfg, nil
}

// optionError is an error in an option the user gave, not in what was read.
type optionError struct{ error }

func (optionError) Usage() bool { return true }

func (e optionError) Unwrap() error { return e.error }

// checkReportOptions is newReportConfig without the marking of its error.
func checkReportOptions(o ReportOptions) (ReportConfig, error) {
	th := o.Thresholds
	if o.Since < 0 {
		return ReportConfig{}, fmt.Errorf("--since must be positive, got %s", o.Since)
	}
	if o.Since > 0 {
		th.Since = findings.Duration(o.Since)
	}
	if o.TargetQueueWait < 0 {
		return ReportConfig{}, fmt.Errorf("--target-queue-wait must be positive, got %s", o.TargetQueueWait)
	}
	if o.TargetQueueWait > 0 && o.SLOQueueWait > 0 && o.TargetQueueWait != o.SLOQueueWait {
		return ReportConfig{}, fmt.Errorf("--target-queue-wait %s and --slo queue-wait-p99=%s disagree: they set the one queue-wait objective (targetQueueWait); give one of them",
			o.TargetQueueWait, o.SLOQueueWait)
	}
	if o.TargetQueueWait > 0 {
		th.TargetQueueWait = findings.Duration(o.TargetQueueWait)
	}
	cfg := ReportConfig{Thresholds: th, FailOn: o.FailOn, Profile: ProfileConfig{Off: o.NoProfile, Port: o.PprofPort},
		Logs: LogConfig{Off: o.NoLogs}}
	if o.PprofPort < 0 || o.PprofPort > 65535 {
		return ReportConfig{}, fmt.Errorf("--pprof-port must be a port from 1 to 65535, got %d", o.PprofPort)
	}
	for _, kv := range o.Workers {
		queue, n, err := parseWorkers(kv)
		if err != nil {
			return ReportConfig{}, err
		}
		if cfg.Workers == nil {
			cfg.Workers = map[string]float64{}
		}
		cfg.Workers[queue] = n
	}
	for _, r := range o.Generations {
		gv, err := parseResource(r)
		if err != nil {
			return ReportConfig{}, err
		}
		cfg.Generations = append(cfg.Generations, gv)
	}
	for _, ck := range o.ControllerKinds {
		name, gk, err := objects.ParseOverride(ck)
		if err != nil {
			return ReportConfig{}, err
		}
		if cfg.ControllerKinds == nil {
			cfg.ControllerKinds = map[string]schema.GroupKind{}
		}
		cfg.ControllerKinds[name] = gk
	}
	if o.MemoryLimit != "" {
		q, err := resource.ParseQuantity(o.MemoryLimit)
		if err != nil || q.Sign() <= 0 {
			return ReportConfig{}, fmt.Errorf("--memory-limit %q is not a positive quantity like 256Mi", o.MemoryLimit)
		}
		cfg.MemoryLimitBytes = q.AsApproximateFloat64()
	}
	ignore, err := suppress.Load(o.IgnoreFile)
	if err != nil {
		return ReportConfig{}, err
	}
	cfg.Ignore = ignore
	return cfg, nil
}

// parseWorkers reads QUEUE=N, N a whole number from 1 to capacity.MaxWorkers.
func parseWorkers(kv string) (string, float64, error) {
	queue, v, ok := strings.Cut(kv, "=")
	n, err := strconv.Atoi(v)
	if !ok || queue == "" || err != nil || n < 1 {
		return "", 0, fmt.Errorf("--workers %q: use QUEUE=N with N a positive whole number, e.g. deployment=5", kv)
	}
	if n > capacity.MaxWorkers {
		return "", 0, fmt.Errorf("--workers %q: %d workers is more than any process runs; give N from 1 to %d", kv, n, capacity.MaxWorkers)
	}
	return queue, float64(n), nil
}

// parseResource reads RESOURCE.GROUP/VERSION.
func parseResource(s string) (schema.GroupVersionResource, error) {
	rg, version, ok := strings.Cut(s, "/")
	resourceName, group, _ := strings.Cut(rg, ".")
	if !ok || version == "" || resourceName == "" {
		return schema.GroupVersionResource{}, fmt.Errorf("--generation-resource %q: use RESOURCE.GROUP/VERSION, e.g. widgets.example.com/v1", s)
	}
	return schema.GroupVersionResource{Group: group, Version: version, Resource: resourceName}, nil
}
