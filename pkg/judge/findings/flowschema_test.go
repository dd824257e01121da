package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// suggestedFlowSchemas are a cluster's: exempt for system:masters, service-accounts for every
// ServiceAccount, and a FlowSchema of the operator "quiet"'s own (no request of it waits).
func suggestedFlowSchemas() *apiserver.FlowControl {
	all := []apiserver.ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}
	return &apiserver.FlowControl{FlowSchemas: []apiserver.FlowSchema{
		{Name: "exempt", PriorityLevel: "exempt", MatchingPrecedence: 1, Rules: []apiserver.FlowRule{{Subjects: []apiserver.Subject{{Kind: "Group", Name: "system:masters"}}, Resources: all}}},
		{Name: "quiet", PriorityLevel: "quiet", MatchingPrecedence: 500, Rules: []apiserver.FlowRule{{Subjects: []apiserver.Subject{{Kind: "ServiceAccount", Namespace: "ops", Name: "quiet"}}, Resources: all}}},
		{Name: "service-accounts", PriorityLevel: "workload-low", MatchingPrecedence: 9000, Rules: []apiserver.FlowRule{{Subjects: []apiserver.Subject{{Kind: "Group", Name: "system:serviceaccounts"}}, Resources: all}}},
	}}
}

func TestFlowSchemaWaits(t *testing.T) {
	apiserver := func(waits, slow float64) Target {
		return Target{ID: "apiserver", Kind: KubeAPIServer, Prev: apfPage(t, nil, 0, 0), Cur: apfPage(t, nil, waits, slow), Window: 15 * time.Second}
	}
	operator := func(sa string) Target {
		return Target{ID: "ops/widget:8080", Kind: ControllerRuntime, Cur: clientPage(t, nil), Prev: clientPage(t, nil), Window: 15 * time.Second,
			Queues: []health.QueueStats{{Queue: "c", Controller: "c"}}, Pod: &Pod{Namespace: "ops", Name: "widget", ServiceAccount: sa},
			FlowSchemas: suggestedFlowSchemas()}
	}
	kcm := func(args ...string) Target {
		return Target{ID: "kube-system/kcm:10257", Kind: KubeControllerManager, Cur: clientPage(t, nil), Prev: clientPage(t, nil), Window: 15 * time.Second,
			Queues: []health.QueueStats{{Queue: "replicaset"}, {Queue: "garbage_collector_attempt_to_delete"}},
			Pod:    &Pod{Namespace: "kube-system", Name: "kcm", ServiceAccount: "default", Args: args}, FlowSchemas: suggestedFlowSchemas()}
	}
	cases := []struct {
		name    string
		targets []Target
		want    []string // target/queue of each finding
	}{
		{"waits", []Target{operator("widget"), apiserver(40, 20)}, []string{"ops/widget:8080/"}},
		{"healthy: waits of microseconds", []Target{operator("widget"), apiserver(40, 0)}, nil},
		{"too few requests waited", []Target{operator("widget"), apiserver(5, 5)}, nil},
		{"its own FlowSchema does not wait", []Target{operator("quiet"), apiserver(40, 20)}, nil},
		{"FlowSchemas not read", func() []Target { o := operator("widget"); o.FlowSchemas = nil; return []Target{o, apiserver(40, 20)} }(), nil},
		{"one sample of the API server", func() []Target {
			a := apiserver(40, 20)
			a.Prev, a.Window = nil, 0
			return []Target{operator("widget"), a}
		}(), nil},
		{"kube-controller-manager's controllers as ServiceAccounts", []Target{kcm("kube-controller-manager", "--use-service-account-credentials=true"), apiserver(40, 20)},
			[]string{"kube-system/kcm:10257/replicaset"}},
		{"kube-controller-manager as itself", []Target{kcm("kube-controller-manager"), apiserver(40, 20)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range flowSchemaWaits(c.targets, DefaultThresholds()) {
				got = append(got, f.Target+"/"+f.Queue)
				if f.Code != "CD221" || !strings.Contains(f.Summary, "FlowSchema service-accounts") || !strings.Contains(f.Summary, "priority level workload-low") ||
					evidenceValue(f, "FlowSchema") != "service-accounts (matchingPrecedence 9000)" || !strings.HasPrefix(evidenceValue(f, "queue wait p99 on apiserver"), "1.") ||
					evidenceValue(f, "requests that waited") != "40" || evidenceValue(f, "waiting in its queues now") != "2" {
					t.Errorf("finding %s: %+v", f.Summary, f.Evidence)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("findings on %v, want %v", got, c.want)
			}
		})
	}
}
