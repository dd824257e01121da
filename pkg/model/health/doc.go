// Package health turns parsed metrics pages into a model of controller health: per target,
// its workqueues, controllers, REST client, informers, leader status and process resources
// (Snapshot), and from one or two snapshots the per-queue figures users act on: rates,
// windowed or lifetime quantiles and a status (QueueStats).
//
// It understands both label schemas in use: component-base (kube-controller-manager and
// client-go controllers) labels workqueue series {name}; controller-runtime >= v0.19 labels
// them {name, controller} and workqueue_depth also {priority}, which is summed.
// controller_runtime_*{controller} series join the queue of the same name.
package health
