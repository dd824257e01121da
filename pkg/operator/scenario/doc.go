// Package scenario defines the reference operator's named fault scenarios: for each, the
// Workloads to create, how often to touch them, and the client and cache settings that make
// the fault. A Driver creates the objects and keeps touching them at a bounded rate.
package scenario
