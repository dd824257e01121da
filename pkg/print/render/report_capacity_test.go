package render

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func TestCapacitySection(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	r := view.Report{Window: "30s", Capacity: []view.Capacity{
		// Saturated at one worker, objects not counted: no bound, the advice a floor.
		{Target: "ns/op:8080", Queue: "workload", Loop: "saturated", OfferedPerSecond: f(2), OfferedIsFloor: true,
			ServiceMeanSeconds: f(1), Workers: f(1), WorkersFrom: "controller_runtime_max_concurrent_reconciles",
			Utilisation: f(2), MeasuredWaitP99Seconds: f(99), TargetWaitP99Seconds: 1, WorkersNeeded: n(4), WorkersHelp: true},
		// Throttled: more workers would not help, and it needs more.
		{Target: "ns/op:8080", Queue: "throttled", Loop: "open", OfferedPerSecond: f(4), ServiceMeanSeconds: f(1),
			Workers: f(2), Utilisation: f(2), TargetWaitP99Seconds: 1, WorkersNeeded: n(7),
			Limits: []string{"client-throttling (CD205): requests wait 1s"}},
		// kube-controller-manager with --workers.
		{Target: "kcm", Queue: "deployment", Loop: "open", OfferedPerSecond: f(1), ServiceMeanSeconds: f(0.01),
			Workers: f(5), WorkersFrom: "--workers", Utilisation: f(0.002), PredictedWaitP99Seconds: f(0), TargetWaitP99Seconds: 1,
			WorkersNeeded: n(1), WorkersHelp: true},
		// kube-controller-manager's workers from its command line, and from a flag's default.
		{Target: "kcm", Queue: "replicaset", Loop: "open", OfferedPerSecond: f(1), ServiceMeanSeconds: f(0.01),
			Workers: f(8), WorkersFrom: "--concurrent-replicaset-syncs in the container's arguments", Utilisation: f(0.002), TargetWaitP99Seconds: 1},
		{Target: "kcm", Queue: "job", Loop: "open", OfferedPerSecond: f(1), ServiceMeanSeconds: f(0.01),
			Workers: f(5), WorkersFrom: "the default of --concurrent-job-syncs", Utilisation: f(0.002), TargetWaitP99Seconds: 1},
	}}
	s := capacitySection(r)
	if len(s.Rows) != 5 {
		t.Fatalf("%d rows", len(s.Rows))
	}
	col := func(row int, name string) string {
		for i, h := range s.Header {
			if h == name {
				return s.Rows[row][i]
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	for _, c := range []struct {
		row        int
		name, want string
	}{
		{0, "WAIT p99 MODEL", "no bound"}, {0, "WORKERS NEEDED", ">= 4"}, {0, "UTILISATION", "200%"},
		{1, "NOTE", "more workers cannot help: client-throttling (CD205): requests wait 1s"},
		{2, "WORKERS", "5 (--workers)"}, {2, "WAIT p99 MODEL", "0s"}, {2, "NOTE", "-"},
		{3, "WORKERS", "8 (--concurrent-replicaset-syncs in args)"}, {4, "WORKERS", "5 (default --concurrent-job-syncs)"},
	} {
		if got := col(c.row, c.name); got != c.want {
			t.Errorf("row %d %s = %q, want %q", c.row, c.name, got, c.want)
		}
	}
	if !strings.Contains(col(0, "NOTE"), "a floor") {
		t.Errorf("floor not said: %q", col(0, "NOTE"))
	}
	if s := capacitySection(view.Report{Window: view.Lifetime}); !strings.Contains(s.Note, "needs rates over a window") {
		t.Errorf("one sample: %q", s.Note)
	}
	if s := capacitySection(view.Report{Window: "5s"}); !strings.Contains(s.Note, "enough completions") {
		t.Errorf("nothing modelled: %q", s.Note)
	}
}
