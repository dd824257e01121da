// Package logs reads a controller's recent log as evidence, in the shapes controllers write:
// zap's JSON (controller-runtime's production default) and console encoder (kubebuilder's
// scaffold, Development: true), klog's text (structured or not), logr's funcr (text or JSON),
// slog's text and JSON, and logfmt, bare or behind the kubelet's timestamps or the CRI
// format, and extracts the few facts the report judges on: the objects that fail ("Reconciler
// error") with their errors, the client's own throttling waits ("Waited for 1.2s
// due to client-side throttling"), panics with their first frames, leader-election losses and
// cache sync timeouts. It parses untrusted text: bounded in line length and in everything it
// keeps, it never fails on a line it does not know, and no raw line leaves it: messages are
// redacted and escaped (pkg/redact), names escaped (pkg/printable).
//
// ReadPodLog fetches that log (pods/log) from the container that serves a controller's
// metrics, bounded in time (sinceSeconds), size (limitBytes) and duration, after a
// SelfSubjectAccessReview; only the facts extracted leave it, and every failure is the log's
// note, never an error of the report.
package logs
