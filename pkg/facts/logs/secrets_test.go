package logs

import (
	"strings"
	"testing"
)

// A reconcile error that quotes a connection string, a query or a header keeps its
// credentials out of the excerpt, which reports and snapshots keep.
func TestReconcileErrorsLoseTheirCredentials(t *testing.T) {
	log := strings.Join([]string{
		`2026-11-26T11:00:02.100000000Z stderr F {"level":"error","ts":"2026-11-26T11:00:02.1Z","msg":"Reconciler error","controller":"db","namespace":"shop","name":"orders","reconcileID":"1","error":"dial postgres://app:PgPassw0rd@db.shop:5432/orders: connection refused"}`,
		`2026-11-26T11:00:03.000000000Z E1126 11:00:03.000000       1 controller.go:316] "Reconciler error" err="GET https://api.example/v1?user=bob&password=hunter2hunter: 401, Authorization: token ghs_16C7e42F292c6912E7710c8" controller="hook" namespace="shop" name="cart" reconcileID="2"`,
	}, "\n") + "\n"
	l := Parse(strings.NewReader(log), Options{Now: now})
	if len(l.Failures) != 2 {
		t.Fatalf("want both failures read, got %+v", l.Failures)
	}
	for _, f := range l.Failures {
		for _, secret := range []string{"PgPassw0rd", "hunter2hunter", "ghs_16C7e42F292c6912E7710c8"} {
			if strings.Contains(f.Error, secret) {
				t.Errorf("the excerpt shows %q: %s", secret, f.Error)
			}
		}
		if !strings.Contains(f.Error, "postgres://app:xxxxx@db.shop") && !strings.Contains(f.Error, "password=xxxxx") {
			t.Errorf("the excerpt lost what it says: %s", f.Error)
		}
	}
}
