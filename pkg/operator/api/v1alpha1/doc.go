// Package v1alpha1 holds the Workload API (group demo.ctrldiag.dev) of the reference operator:
// each Workload's spec sets how the operator behaves when it reconciles that object, so that
// faults can be switched on by creating objects.
package v1alpha1
