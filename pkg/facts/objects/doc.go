// Package objects reads the objects controllers reconcile: which kind each controller serves
// (its name, a built-in table for kube-controller-manager, or an override, resolved through API
// discovery), and, for each kind, how many objects there are, which are not Ready or stalled and
// why, which trail their spec, and which deletions wait on finalizers. It lists metadata and
// status in pages and keeps counts and a few examples, not the objects.
package objects
