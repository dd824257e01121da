//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// Two tenants' Prometheus, each with a sidecar and its tenant as the external label tenant_id,
// scrape the same operator; one Thanos Query enforces tenancy (it answers a tenant only its own
// series, the tenant told by the THANOS-TENANT header). --tenant sends that header (and
// Mimir's X-Scope-OrgID): each tenant reads its own cluster's queues and never the other's.
func TestThanosTenantReadsItsOwnSeries(t *testing.T) {
	crowd(t)
	f := newThanosFixture(t, "operator-tenant", "healthy")
	cfg := func(cluster, tenant string) string {
		return fmt.Sprintf("global: {scrape_interval: 2s, scrape_timeout: 1s, external_labels: {cluster: %q, tenant_id: %q}}\nscrape_configs:%s", cluster, tenant, f.jobs)
	}
	a := promserver.PrometheusWithSidecar(t, f.prometheus, f.thanos, cfg("east", "team-a"))
	b := promserver.PrometheusWithSidecar(t, f.prometheus, f.thanos, cfg("west", "team-b"))
	query := promserver.ThanosQuery(t, f.thanos, []string{a.GRPC, b.GRPC}, "--query.enforce-tenancy", "--query.tenant-label-name=tenant_id")

	const window = 20 * time.Second
	time.Sleep(10*time.Second + window)
	at := time.Now().Add(-3 * time.Second).UTC().Format(time.RFC3339)
	for tenant, cluster := range map[string]string{"team-a": "east", "team-b": "west"} {
		l, r := queuesJSON(t, "--prometheus", query, "--tenant", tenant, "--window", window.String(), "--at", at, "-A")
		if r.Code != 0 {
			t.Fatalf("--tenant %s: queues exit %d:\n%s", tenant, r.Code, r)
		}
		var clusters []string
		for _, it := range l.Items {
			c, _, _ := strings.Cut(it.Target, "/")
			if !slices.Contains(clusters, c) {
				clusters = append(clusters, c)
			}
		}
		if !slices.Equal(clusters, []string{cluster}) {
			t.Errorf("--tenant %s: queues of clusters %v, want only %s's:\n%s", tenant, clusters, cluster, r)
		}
	}
}
