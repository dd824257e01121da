// Package informers names the reference operator's informers so that client-go (>= 0.36)
// emits informer_queued_items, informer_processing_latency_seconds and
// informer_store_resource_version for them, registered in controller-runtime's registry.
// controller-runtime creates unnamed informers by default; Named plugs into its
// cache.Options.NewInformer the way Cluster API does.
package informers
