// This file is what pods use of CPU and memory, as the metrics API (metrics.k8s.io)
// reports it: a fact about the cluster that sources read and the report shows beside the
// figures the controllers' own pages give.

package source

// PodUsage is a pod's CPU and memory use, summed over its containers.
type PodUsage struct {
	CPUCores    float64
	MemoryBytes float64
}
