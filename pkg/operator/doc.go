// Package operator runs kubectl-ctrldiag's reference operator: a controller-runtime manager
// with the Workload controller, named informers, leader election, a metrics server (HTTP, or
// HTTPS with TokenReview/SubjectAccessReview) and health probes, plus the load of one fault
// scenario. It knows nothing of cobra: pkg/cmd/operator turns flags into a Config.
package operator
