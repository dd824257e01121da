package view

import (
	"math"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// APIVersion is the schema version of every structured output (Report, QueueList,
// TargetList, ReportDiff).
const APIVersion = "ctrldiag.dev/v1alpha1"

// Lifetime is the window of figures computed from one sample: since each process started.
const Lifetime = "lifetime"

// SinceRestart is added to the window's name of a target that restarted between its
// samples: its figures are over the time since the new process started, or its lifetime.
const SinceRestart = " since restart"

// WindowName names the window figures are over: a duration rounded to 100 ms, or "lifetime"
// (one sample: since the process started).
func WindowName(d time.Duration) string {
	if d <= 0 {
		return Lifetime
	}
	return health.WindowText(d)
}

// QueueWindow names the window of one queue's figures: WindowName, marked when the target
// restarted between its samples.
func QueueWindow(s health.QueueStats) string {
	if s.SinceRestart {
		return WindowName(s.Window) + SinceRestart
	}
	return WindowName(s.Window)
}

// Num is v, or nil when v is NaN or infinite (JSON has neither): every structured output
// writes an unknown figure as null.
func Num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
