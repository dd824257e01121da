package install

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

var (
	roleType        = metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}
	clusterRoleType = metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"}
)

// rbac returns the least-privilege RBAC of the operator: a Role for what it touches in its
// namespace, a ClusterRole to read its own CRD, one for TokenReview/SubjectAccessReview
// (--metrics-secure), their bindings, and a metrics-reader ClusterRole for scrapers.
func rbac(o Options) []runtime.Object {
	rw := []string{"get", "list", "watch", "create", "update", "patch", "delete"}
	manager := &rbacv1.Role{TypeMeta: roleType, ObjectMeta: objectMeta(o, o.Name+"-manager", true),
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{v1alpha1.GroupVersion.Group}, Resources: []string{v1alpha1.Resource},
				Verbs: append(rw, "deletecollection")},
			{APIGroups: []string{v1alpha1.GroupVersion.Group}, Resources: []string{v1alpha1.Resource + "/status"},
				Verbs: []string{"get", "update", "patch"}},
			{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: rw},
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: rw},
			{APIGroups: []string{"", "events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
		}}
	crd := &rbacv1.ClusterRole{TypeMeta: clusterRoleType, ObjectMeta: objectMeta(o, o.Name+"-crd-reader", false),
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"apiextensions.k8s.io"},
			Resources: []string{"customresourcedefinitions"}, ResourceNames: []string{CRDName}, Verbs: []string{"get"}}}}
	auth := &rbacv1.ClusterRole{TypeMeta: clusterRoleType, ObjectMeta: objectMeta(o, o.Name+"-metrics-auth", false),
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"tokenreviews"}, Verbs: []string{"create"}},
			{APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"subjectaccessreviews"}, Verbs: []string{"create"}},
		}}
	reader := &rbacv1.ClusterRole{TypeMeta: clusterRoleType, ObjectMeta: objectMeta(o, o.Name+"-metrics-reader", false),
		Rules: []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}}}
	return []runtime.Object{
		manager, bindRole(o, manager.Name),
		crd, bindClusterRole(o, crd.Name),
		auth, bindClusterRole(o, auth.Name),
		reader,
	}
}

func subjects(o Options) []rbacv1.Subject {
	return []rbacv1.Subject{{Kind: "ServiceAccount", Name: o.Name, Namespace: o.Namespace}}
}

func bindRole(o Options, role string) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: objectMeta(o, role, true),
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role},
		Subjects:   subjects(o),
	}
}

func bindClusterRole(o Options, role string) *rbacv1.ClusterRoleBinding {
	return &rbacv1.ClusterRoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRoleBinding"},
		ObjectMeta: objectMeta(o, role, false),
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects:   subjects(o),
	}
}
