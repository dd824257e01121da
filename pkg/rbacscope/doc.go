// Package rbacscope decides, from the cluster's ClusterRoleBindings and the ClusterRoles they
// bind, whether a ServiceAccount may list or watch a kind's objects in every namespace: for a
// controller neither its kind nor its flags say to be cluster-wide, that grant does. It reads
// the bindings once and each ClusterRole they name for the ServiceAccount once, after a
// SelfSubjectAccessReview, and keeps only the grants, never the objects.
package rbacscope
