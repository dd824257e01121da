// Package controller is the reconcile logic of the reference operator: one controller-runtime
// controller that reconciles Workloads, keeps their child ConfigMaps and status, and behaves
// (slow, failing, stuck, requeueing) the way each Workload's spec asks, and, for the scenarios
// that ask for it, a second one ("settings") that reconciles labelled ConfigMaps and fails on
// those that say so. It also exports the event-to-handler lag histogram.
package controller
