package promsource

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"
)

// Told to, every query asks the server to deduplicate over the replica labels (Thanos Query's
// dedup and replicaLabels[]); otherwise it asks nothing of the kind, and the labels are only
// known to the readers.
func TestAskDedupSendsReplicaLabels(t *testing.T) {
	for _, ask := range []bool{true, false} {
		var form map[string][]string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			form = r.Form
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`))
		}))
		c, err := NewClient(ClientConfig{URL: srv.URL, ReplicaLabels: []string{"replica", "prometheus_replica"}, AskDedup: ask})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Query(context.Background(), "up", time.Unix(1700000000, 0)); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		if ask {
			if form["dedup"][0] != "true" || !slices.Equal(form["replicaLabels[]"], []string{"replica", "prometheus_replica"}) {
				t.Errorf("asked to deduplicate, sent %v", form)
			}
		} else if _, ok := form["dedup"]; ok || form["replicaLabels[]"] != nil {
			t.Errorf("not asked to deduplicate, sent %v", form)
		}
		if !slices.Equal(c.ReplicaLabels(), []string{"replica", "prometheus_replica"}) {
			t.Errorf("ReplicaLabels() = %v", c.ReplicaLabels())
		}
	}
}
