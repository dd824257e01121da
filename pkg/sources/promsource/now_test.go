package promsource

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

func TestClusterOfNow(t *testing.T) {
	now := time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)
	one := []target.Target{{Cluster: "prod", Namespace: "ops", Name: "op-1"}, {Cluster: "prod", Namespace: "ops", Name: "op-2"}}
	unlabelled := []target.Target{{Namespace: "ops", Name: "op-1"}}
	fleet := []target.Target{{Cluster: "eu", Namespace: "ops", Name: "op-1"}, {Cluster: "us", Namespace: "ops", Name: "op-1"}, {Namespace: "x", Name: "y"}}
	cases := []struct {
		name    string
		at      time.Time
		window  time.Duration
		targets []target.Target
		want    string // "" = the cluster may be read; else a part of why not
	}{
		{"now, one cluster", now, 10 * time.Minute, one, ""},
		{"now, no cluster label", now, 10 * time.Minute, unlabelled, ""},
		{"within one window of now", now.Add(-9 * time.Minute), 10 * time.Minute, one, ""},
		{"exactly one window ago", now.Add(-10 * time.Minute), 10 * time.Minute, one, ""},
		{"past", now.Add(-time.Hour), 10 * time.Minute, one, "the report is about 2026-03-02T02:00:00Z, 1h0m0s ago"},
		{"just past one window", now.Add(-11 * time.Minute), 10 * time.Minute, unlabelled, "11m0s ago"},
		{"fleet", now, 10 * time.Minute, fleet, "the series span 2 clusters (cluster=eu, us)"},
		{"past fleet: the time is said first", now.Add(-time.Hour), 10 * time.Minute, fleet, "1h0m0s ago"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterOfNow(tc.at, now, tc.window, tc.targets, "cluster")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("ClusterOfNow = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPodsOfNow(t *testing.T) {
	named := []string{"ops/op-1", "ops/op-2", "ops/op-3", "ops/op-4"}
	if got := PodsOfNow(named, map[string]bool{"ops/op-3": true}, ""); got != "" {
		t.Errorf("one pod found: %q, want the cluster taken", got)
	}
	got := PodsOfNow(named, map[string]bool{"other/op-1": true}, " (https://10.0.0.1:6443)")
	for _, want := range []string{"none of the 4 pods", "ops/op-1, ops/op-2, ops/op-3 and 1 more", "(https://10.0.0.1:6443)"} {
		if !strings.Contains(got, want) {
			t.Errorf("no pod found: %q, want it to say %q", got, want)
		}
	}
	if got := PodsOfNow(nil, nil, ""); !strings.Contains(got, "no pods") {
		t.Errorf("no pods named: %q, want it said", got)
	}
}
