package apiserver

import (
	"context"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func schemaObject(name, level string, precedence int32, rules ...flowcontrolv1.PolicyRulesWithSubjects) *flowcontrolv1.FlowSchema {
	return &flowcontrolv1.FlowSchema{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: flowcontrolv1.FlowSchemaSpec{
		PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: level},
		MatchingPrecedence:         precedence, Rules: rules}}
}

func group(name string) flowcontrolv1.Subject {
	return flowcontrolv1.Subject{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: name}}
}

func all(verbs ...string) []flowcontrolv1.ResourcePolicyRule {
	return []flowcontrolv1.ResourcePolicyRule{{Verbs: verbs, APIGroups: []string{"*"}, Resources: []string{"*"}, ClusterScope: true, Namespaces: []string{"*"}}}
}

// allowAll answers every SelfSubjectAccessReview with allowed (or not).
func allowAll(c *fake.Clientset, allowed bool) {
	c.PrependReactor("create", "selfsubjectaccessreviews", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, &authorizationv1.SelfSubjectAccessReview{Status: authorizationv1.SubjectAccessReviewStatus{Allowed: allowed}}, nil
	})
}

// The suggested FlowSchemas of a cluster, in no order: kube-controller-manager's
// ServiceAccounts are kube-system-service-accounts' (workload-high), except for leases,
// which system-leader-election takes first; an operator's ServiceAccount is
// service-accounts' (workload-low); a FlowSchema of its own with a lower precedence wins.
func TestReadAndClassify(t *testing.T) {
	leases := flowcontrolv1.PolicyRulesWithSubjects{
		Subjects: []flowcontrolv1.Subject{group("system:serviceaccounts:kube-system")},
		ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"get", "create", "update"}, APIGroups: []string{"coordination.k8s.io"},
			Resources: []string{"leases"}, Namespaces: []string{"*"}}}}
	own := flowcontrolv1.PolicyRulesWithSubjects{
		Subjects:      []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindServiceAccount, ServiceAccount: &flowcontrolv1.ServiceAccountSubject{Namespace: "ops", Name: "widget"}}},
		ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"create"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, Namespaces: []string{"ops"}}}}
	c := fake.NewClientset(
		schemaObject("global-default", "global-default", 9900, flowcontrolv1.PolicyRulesWithSubjects{Subjects: []flowcontrolv1.Subject{group("system:unauthenticated"), group("system:authenticated")}, ResourceRules: all("*")}),
		schemaObject("service-accounts", "workload-low", 9000, flowcontrolv1.PolicyRulesWithSubjects{Subjects: []flowcontrolv1.Subject{group("system:serviceaccounts")}, ResourceRules: all("*")}),
		schemaObject("kube-system-service-accounts", "workload-high", 900, flowcontrolv1.PolicyRulesWithSubjects{Subjects: []flowcontrolv1.Subject{group("system:serviceaccounts:kube-system")}, ResourceRules: all("*")}),
		schemaObject("system-leader-election", "leader-election", 100, leases),
		schemaObject("exempt", "exempt", 1, flowcontrolv1.PolicyRulesWithSubjects{Subjects: []flowcontrolv1.Subject{group("system:masters")}, ResourceRules: all("*")}),
		schemaObject("widget", "widget", 500, own),
		schemaObject("health", "exempt", 0, flowcontrolv1.PolicyRulesWithSubjects{Subjects: []flowcontrolv1.Subject{group("system:serviceaccounts")},
			NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}}}),
	)
	allowAll(c, true)
	v := ReadFlowSchemas(context.Background(), c)
	if len(v.Notes) != 0 || len(v.FlowSchemas) != 7 {
		t.Fatalf("read %+v", v)
	}
	var order []string
	for _, f := range v.FlowSchemas {
		order = append(order, f.Name)
	}
	if got := order[0] + "," + order[1] + "," + order[2] + "," + order[3]; got != "exempt,system-leader-election,widget,kube-system-service-accounts" {
		t.Errorf("order %v", order)
	}
	rs := ServiceAccount("kube-system", "replicaset-controller")
	pods := []Request{{Verb: "create", Resource: "pods"}, {Verb: "list", Resource: "pods"}}
	cases := []struct {
		id   Identity
		reqs []Request
		want string
	}{
		{rs, pods, "kube-system-service-accounts"},
		{rs, []Request{{Verb: "update", Group: "coordination.k8s.io", Resource: "leases"}}, "system-leader-election"},
		{ServiceAccount("ops", "widget"), []Request{{Verb: "create", Resource: "configmaps"}}, "widget"},
		{ServiceAccount("ops", "widget"), []Request{{Verb: "update", Group: "example.com", Resource: "workloads/status"}}, "service-accounts"},
		{ServiceAccount("ops", "widget"), nil, "widget"},
		{ServiceAccount("ops", "other"), pods, "service-accounts"},
		{Identity{User: "jane", Groups: []string{"system:authenticated"}}, pods, "global-default"},
		{Identity{User: "anon"}, pods, ""},
	}
	for _, tc := range cases {
		got := ""
		if f := v.Classify(tc.id, tc.reqs); f != nil {
			got = f.Name
		}
		if got != tc.want {
			t.Errorf("%s %v: classified by %q, want %q", tc.id.User, tc.reqs, got, tc.want)
		}
	}
	if s := v.Classify(rs, pods).String(); s != "FlowSchema kube-system-service-accounts (priority level workload-high, matchingPrecedence 900)" {
		t.Errorf("String() = %q", s)
	}
}

func TestReadFlowSchemasForbidden(t *testing.T) {
	c := fake.NewClientset(schemaObject("exempt", "exempt", 1))
	allowAll(c, false)
	v := ReadFlowSchemas(context.Background(), c)
	if len(v.FlowSchemas) != 0 || len(v.Notes) != 1 || v.Notes[0] != "the FlowSchemas were not read: needs RBAC verb list on flowschemas.flowcontrol.apiserver.k8s.io" {
		t.Errorf("read %+v", v)
	}
	var nilView *FlowControl
	if nilView.Classify(ServiceAccount("a", "b"), nil) != nil {
		t.Error("a view not read classifies")
	}
}
