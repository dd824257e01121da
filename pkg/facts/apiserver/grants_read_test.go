package apiserver

import (
	"context"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// clientOf is a fake cluster holding objs whose access reviews answer allowed.
func clientOf(allowed bool, objs ...runtime.Object) *fake.Clientset {
	c := fake.NewClientset(objs...)
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		r.Status.Allowed = allowed
		return true, r, nil
	})
	return c
}

func clusterRole(name string, rules ...rbacv1.PolicyRule) *rbacv1.ClusterRole {
	return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
}

func binding(name, role string, subjects ...rbacv1.Subject) *rbacv1.ClusterRoleBinding {
	return &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name}, Subjects: subjects,
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role}}
}

func sa(ns, name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: name}
}

const demo = "demo.ctrldiag.dev"

// A ClusterRole bound to the ServiceAccount (by name, by its groups) that lists or watches the
// kind, wildcards included, grants it; other verbs, other kinds, resourceNames, other
// ServiceAccounts and a binding to a missing role do not.
func TestGrant(t *testing.T) {
	c := clientOf(true,
		clusterRole("workloads", rbacv1.PolicyRule{APIGroups: []string{demo}, Resources: []string{"workloads"}, Verbs: []string{"get", "list", "watch"}}),
		clusterRole("updater", rbacv1.PolicyRule{APIGroups: []string{demo}, Resources: []string{"widgets"}, Verbs: []string{"update", "get"}}),
		clusterRole("named", rbacv1.PolicyRule{APIGroups: []string{demo}, Resources: []string{"widgets"}, ResourceNames: []string{"one"}, Verbs: []string{"list"}}),
		clusterRole("everything", rbacv1.PolicyRule{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}),
		clusterRole("apps-watch", rbacv1.PolicyRule{APIGroups: []string{"apps"}, Resources: []string{"*"}, Verbs: []string{"watch"}}),
		binding("op-workloads", "workloads", sa("ops", "op")),
		binding("op-updater", "updater", sa("ops", "op")),
		binding("op-named", "named", sa("ops", "op")),
		binding("gone", "no-such-role", sa("ops", "op")),
		binding("other", "everything", sa("elsewhere", "op"), sa("ops", "other")),
		binding("all-sas", "apps-watch", rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "system:serviceaccounts:ops"}),
	)
	r := NewGrantReader(c)
	ctx := context.Background()
	for _, tc := range []struct {
		account, group, resource string
		want                     string
	}{
		{"ops/op", demo, "workloads", "ClusterRole workloads bound to its ServiceAccount ops/op by ClusterRoleBinding op-workloads"},
		{"ops/op", demo, "widgets", ""},
		{"ops/op", "apps", "deployments", "ClusterRole apps-watch bound to group system:serviceaccounts:ops by ClusterRoleBinding all-sas"},
		{"ops/op", "", "configmaps", ""},
		{"ops/other", "", "configmaps", "ClusterRole everything bound to its ServiceAccount ops/other by ClusterRoleBinding other"},
		{"elsewhere/other", demo, "workloads", ""},
	} {
		g, ok, err := r.Grant(ctx, tc.account, tc.group, tc.resource)
		if err != nil || ok != (tc.want != "") || ok && g.Why() != tc.want {
			t.Errorf("%s on %s.%s: %+v %v %v, want %q", tc.account, tc.resource, tc.group, g, ok, err, tc.want)
		}
	}
	// One list of the bindings, each ClusterRole got once, whatever was asked.
	lists, gets := 0, map[string]int{}
	for _, a := range c.Actions() {
		switch {
		case a.GetVerb() == "list" && a.GetResource().Resource == "clusterrolebindings":
			lists++
		case a.GetVerb() == "get" && a.GetResource().Resource == "clusterroles":
			gets[a.(k8stesting.GetAction).GetName()]++
		}
	}
	if lists != 1 {
		t.Errorf("%d lists of clusterrolebindings, want 1", lists)
	}
	for name, n := range gets {
		if n != 1 {
			t.Errorf("ClusterRole %s got %d times", name, n)
		}
	}
}

// A user who may not read the bindings gets an answer that says what would decide it, and
// nothing is listed.
func TestGrantUndecided(t *testing.T) {
	c := clientOf(false, clusterRole("workloads", rbacv1.PolicyRule{APIGroups: []string{demo}, Resources: []string{"workloads"}, Verbs: []string{"list"}}),
		binding("op", "workloads", sa("ops", "op")))
	_, ok, err := NewGrantReader(c).Grant(context.Background(), "ops/op", demo, "workloads")
	if ok || err == nil || !strings.Contains(err.Error(), "needs RBAC verb list on clusterrolebindings.rbac.authorization.k8s.io and get on clusterroles.rbac.authorization.k8s.io") {
		t.Errorf("undecided: %v %v", ok, err)
	}
	for _, a := range c.Actions() {
		if a.GetResource().Group == rbacv1.GroupName {
			t.Errorf("read %s %s without the permission", a.GetVerb(), a.GetResource().Resource)
		}
	}
}
