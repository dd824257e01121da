package health

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// The API server's own page, kept by Wanted: queue waits and in-queue requests by priority
// level and FlowSchema, both values of execute summed.
func TestFlowControlFromTheAPIServerPage(t *testing.T) {
	page, err := parse.Parse("kube-apiserver-2", bytes.NewReader(readPage(t, "kube-apiserver-2.prom.gz")), Wanted)
	if err != nil {
		t.Fatal(err)
	}
	s := FromFamilies(page.Families, time.Time{})
	kcm := Flow{PriorityLevel: "workload-high", FlowSchema: "kube-controller-manager"}
	if h := s.FlowControl.Wait[kcm]; h == nil || h.Count != 198 || h.Quantile(0.99) > 0.005 {
		t.Errorf("wait of %+v: %+v", kcm, h)
	}
	if v, ok := s.FlowControl.InQueue[kcm]; !ok || v != 0 {
		t.Errorf("in queue of %+v: %v %v", kcm, v, ok)
	}
	if len(s.FlowControl.Rejected) != 0 {
		t.Errorf("an idle API server rejected: %+v", s.FlowControl.Rejected)
	}
}

func TestFlowControlAndWebhookSeries(t *testing.T) {
	page := `# TYPE apiserver_flowcontrol_rejected_requests_total counter
apiserver_flowcontrol_rejected_requests_total{flow_schema="fs",priority_level="pl",reason="queue-full"} 3
apiserver_flowcontrol_rejected_requests_total{flow_schema="fs",priority_level="pl",reason="time-out"} 2
apiserver_flowcontrol_rejected_requests_total{flow_schema="fs",reason="time-out"} 9
# TYPE apiserver_flowcontrol_request_wait_duration_seconds histogram
apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="true",flow_schema="fs",priority_level="pl",le="1"} 4
apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="true",flow_schema="fs",priority_level="pl",le="+Inf"} 4
apiserver_flowcontrol_request_wait_duration_seconds_count{execute="true",flow_schema="fs",priority_level="pl"} 4
apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="false",flow_schema="fs",priority_level="pl",le="1"} 0
apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="false",flow_schema="fs",priority_level="pl",le="+Inf"} 2
apiserver_flowcontrol_request_wait_duration_seconds_count{execute="false",flow_schema="fs",priority_level="pl"} 2
# TYPE controller_runtime_webhook_requests_total counter
controller_runtime_webhook_requests_total{webhook="/mutate",code="200"} 7
controller_runtime_webhook_requests_total{webhook="/mutate",code="500"} 1
controller_runtime_webhook_requests_in_flight{webhook="/mutate"} 2
controller_runtime_webhook_requests_in_flight{webhook=""} 5
`
	p, err := parse.Parse("page", strings.NewReader(page), Wanted)
	if err != nil {
		t.Fatal(err)
	}
	s := FromFamilies(p.Families, time.Time{})
	pl := Flow{PriorityLevel: "pl", FlowSchema: "fs"}
	if got := s.FlowControl.Rejected; len(got) != 2 || got[Rejection{pl, "queue-full"}] != 3 || got[Rejection{pl, "time-out"}] != 2 {
		t.Errorf("rejected (a series without priority_level is skipped): %+v", got)
	}
	if h := s.FlowControl.Wait[pl]; h == nil || h.Count != 6 || h.Buckets[0].Count != 4 {
		t.Errorf("wait, execute true and false summed: %+v", h)
	}
	w := s.Webhooks["/mutate"]
	if len(s.Webhooks) != 1 || w == nil || w.ByCode["500"] != 1 || w.InFlight != 2 || w.Latency != nil {
		t.Errorf("webhooks: %+v", s.Webhooks)
	}
	if s := FromFamilies(nil, time.Time{}); s.Webhooks != nil || s.FlowControl.Rejected != nil {
		t.Errorf("an empty page: %+v", s)
	}
}
