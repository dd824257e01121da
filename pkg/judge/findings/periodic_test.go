package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// externalDNS is the real external-dns page file read at the time at, as a target whose pod
// runs it with args. The captured pages keep only external-dns' own families: the process's
// start is set to start.
func externalDNS(t *testing.T, file string, at, start time.Time, args ...string) Target {
	t.Helper()
	cur := health.FromFamilies(testpages.Parse(t, file, health.Wanted).Families, at)
	cur.Process.StartTime = float64(start.Unix())
	return Target{ID: "edns/external-dns:7979", Kind: KindOf(cur, nil), Cur: cur,
		Pod: &Pod{Namespace: "edns", Name: "external-dns", Image: "registry.k8s.io/external-dns/external-dns:v0.22.0",
			Args: append([]string{"external-dns", "--provider=inmemory", "--source=service"}, args...)}}
}

func TestNotSyncing(t *testing.T) {
	// The healthy page was read at 23:15:58, ten seconds after its last sync (every 15 s).
	healthyAt := time.Date(2026, 12, 5, 23, 15, 58, 0, time.UTC)
	start := healthyAt.Add(-5 * time.Minute)
	cases := []struct {
		name, file string
		at, start  time.Time
		args       []string
		want       []string // the summary's parts; nil: no finding
	}{
		{name: "syncing", file: "external-dns-healthy.prom", at: healthyAt, start: start, args: []string{"--interval=15s"}},
		{name: "syncing, the default period", file: "external-dns-healthy.prom", at: healthyAt, start: start},
		{name: "three periods after the last sync", file: "external-dns-healthy.prom", at: healthyAt.Add(40 * time.Second), start: start,
			args: []string{"--interval", "15s"}, want: []string{"external-dns has not synced for 49s, 3 periods of 15s", "its last attempt was 49s ago: a sync that hangs"}},
		{name: "the default period is a minute", file: "external-dns-healthy.prom", at: healthyAt.Add(40 * time.Second), start: start},
		// The fault page: a ServiceAccount that may read services only; its informers of pods,
		// endpointslices and nodes never sync, and neither timestamp leaves 0.
		{name: "started 20s ago, period 15s", file: "external-dns-fault.prom", at: healthyAt, start: healthyAt.Add(-20 * time.Second),
			args: []string{"--interval=15s"}},
		{name: "started 20s ago, period 5s", file: "external-dns-fault.prom", at: healthyAt, start: healthyAt.Add(-20 * time.Second),
			args: []string{"--interval=5s"}, want: []string{"external-dns has not synced once since it started 20s ago, 4 periods of 5s",
				"it has not attempted one: its sources are not ready"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := externalDNS(t, c.file, c.at, c.start, c.args...)
			fs := Evaluate([]Target{target}, nil, nil, DefaultThresholds())
			var got *Finding
			for i, f := range fs {
				if f.Check == "no-workqueue-metrics" {
					t.Errorf("a controller that syncs on a period has no queue by design: %s", f.Summary)
				}
				if f.Check == "not-syncing" {
					got = &fs[i]
				}
			}
			if c.want == nil {
				if got != nil {
					t.Fatalf("not-syncing on a controller that syncs: %s", got.Summary)
				}
				return
			}
			if got == nil {
				t.Fatalf("no not-syncing finding: %s", checks(fs))
			}
			for _, w := range c.want {
				if !strings.Contains(got.Summary, w) && !strings.Contains(evidenceText(*got), w) {
					t.Errorf("not-syncing says %q and %s; want %q", got.Summary, evidenceText(*got), w)
				}
			}
			if got.Severity != Warning || got.Knob == nil || got.Knob.Flags[0].Flag != "--interval" || got.Knob.Controller != "external-dns" {
				t.Errorf("not-syncing: severity %s, knob %+v", got.Severity, got.Knob)
			}
		})
	}
}

func evidenceText(f Finding) string {
	var b strings.Builder
	for _, e := range f.Evidence {
		b.WriteString(e.Name + ": " + e.Value + "; ")
	}
	return b.String()
}
