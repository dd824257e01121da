package apiserver

import (
	"slices"
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
)

// Grant is a ClusterRole bound cluster-wide to a ServiceAccount, with the rules of it that let
// the ServiceAccount list or watch objects.
type Grant struct {
	// ClusterRole and Binding (its ClusterRoleBinding) name it; Subject is whom the binding
	// names: "its ServiceAccount ops/op", "group system:serviceaccounts".
	ClusterRole, Binding, Subject string
	rules                         []rule
}

// rule is the API groups and resources a rule lets list or watch ("*" for any).
type rule struct{ groups, resources []string }

// Why says where the grant comes from: "ClusterRole op bound to its ServiceAccount ops/op by
// ClusterRoleBinding op".
func (g Grant) Why() string {
	return "ClusterRole " + g.ClusterRole + " bound to " + g.Subject + " by ClusterRoleBinding " + g.Binding
}

// Covers says whether the grant lets list or watch the resource of group ("" for the core
// group) in every namespace.
func (g Grant) Covers(group, resource string) bool {
	for _, r := range g.rules {
		if matches(r.groups, group) && matches(r.resources, resource) {
			return true
		}
	}
	return false
}

// matches says whether a rule's list names v, or "*".
func matches(list []string, v string) bool {
	return slices.Contains(list, v) || slices.Contains(list, rbacv1.ResourceAll)
}

// Grants are what the ClusterRoleBindings give the ServiceAccount name of namespace ns, by
// binding name: each binding whose subjects name it (the ServiceAccount, its user name, or a
// group it is in) and whose ClusterRole (role gives it, nil when there is none) has rules of
// verb list, watch or "*" on resources. Rules limited to resourceNames list nothing whole.
func Grants(ns, name string, bindings []rbacv1.ClusterRoleBinding, role func(string) *rbacv1.ClusterRole) []Grant {
	var out []Grant
	for i := range bindings {
		b := &bindings[i]
		subject := Binds(b, ns, name)
		if subject == "" || b.RoleRef.Kind != "ClusterRole" {
			continue
		}
		cr := role(b.RoleRef.Name)
		if cr == nil {
			continue
		}
		g := Grant{ClusterRole: cr.Name, Binding: b.Name, Subject: subject}
		for _, r := range cr.Rules {
			if len(r.ResourceNames) > 0 || len(r.Resources) == 0 {
				continue
			}
			if slices.Contains(r.Verbs, "list") || slices.Contains(r.Verbs, "watch") || slices.Contains(r.Verbs, rbacv1.VerbAll) {
				g.rules = append(g.rules, rule{groups: r.APIGroups, resources: r.Resources})
			}
		}
		if len(g.rules) > 0 {
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Binding < out[j].Binding })
	return out
}

// Binds says how the binding names the ServiceAccount name of namespace ns ("its
// ServiceAccount ns/name", "group system:serviceaccounts", ...), or "" when it does not.
func Binds(b *rbacv1.ClusterRoleBinding, ns, name string) string {
	for _, s := range b.Subjects {
		switch s.Kind {
		case rbacv1.ServiceAccountKind:
			if s.Name == name && s.Namespace == ns {
				return "its ServiceAccount " + ns + "/" + name
			}
		case rbacv1.UserKind:
			if s.Name == "system:serviceaccount:"+ns+":"+name {
				return "its ServiceAccount " + ns + "/" + name + " (as user " + s.Name + ")"
			}
		case rbacv1.GroupKind:
			switch s.Name {
			case "system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated":
				return "group " + s.Name
			}
		}
	}
	return ""
}
