package scenario

import (
	"testing"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
)

// The apf-throttled scenario's flow control: a level with no seats of its own that rejects,
// and a FlowSchema that sends it only this user's writes in this namespace, ahead of the
// suggested schemas a ServiceAccount would otherwise fall into.
func TestFlowControlObjects(t *testing.T) {
	sc, err := Get("apf-throttled")
	if err != nil || sc.FlowControl == nil || sc.Client.QPS >= 0 {
		t.Fatalf("apf-throttled: %+v %v", sc, err)
	}
	plc, fs := FlowControlObjects(*sc.FlowControl, "ns", "system:serviceaccount:ns:op")
	if plc.Name != "ctrldiag-apf-throttled-ns" || fs.Name != plc.Name || fs.Spec.PriorityLevelConfiguration.Name != plc.Name {
		t.Errorf("names: %s %s -> %s", plc.Name, fs.Name, fs.Spec.PriorityLevelConfiguration.Name)
	}
	l := plc.Spec.Limited
	if plc.Spec.Type != flowcontrolv1.PriorityLevelEnablementLimited || l == nil || *l.NominalConcurrencyShares != 0 ||
		*l.LendablePercent != 0 || *l.BorrowingLimitPercent != 0 || l.LimitResponse.Type != flowcontrolv1.LimitResponseTypeReject {
		t.Errorf("priority level: %+v", plc.Spec)
	}
	if fs.Spec.MatchingPrecedence >= 900 || fs.Spec.MatchingPrecedence <= 1 {
		t.Errorf("matching precedence %d: must come before kube-system-service-accounts (900) and after exempt", fs.Spec.MatchingPrecedence)
	}
	rules := fs.Spec.Rules
	if len(rules) != 1 || len(rules[0].Subjects) != 1 || rules[0].Subjects[0].User == nil || rules[0].Subjects[0].User.Name != "system:serviceaccount:ns:op" {
		t.Fatalf("subjects: %+v", rules)
	}
	if len(rules[0].NonResourceRules) != 0 || len(rules[0].ResourceRules) == 0 {
		t.Errorf("rules: %+v", rules[0])
	}
	for _, r := range rules[0].ResourceRules {
		if len(r.Namespaces) != 1 || r.Namespaces[0] != "ns" || r.ClusterScope {
			t.Errorf("a rule beyond the namespace: %+v", r)
		}
		for _, v := range r.Verbs {
			if v == "get" || v == "list" || v == "watch" || v == "*" {
				t.Errorf("a read is throttled, the cache could not sync: %+v", r)
			}
		}
		for _, res := range r.Resources {
			if res == "leases" || res == "workloads" || res == "*" {
				t.Errorf("leader election or the scenario's own load would be throttled: %+v", r)
			}
		}
	}
}
