package events

import "strings"

// Controller is one controller whose events are looked for.
type Controller struct {
	// ID is the controller as the report names it: "target queue".
	ID string
	// Components are the names its events are reported by (reportingController,
	// source.component).
	Components []string
	// Kinds are the kinds it reconciles: events on their objects speak of it too.
	Kinds []Kind
}

// Kind is a kind of object, as an event's involvedObject names it.
type Kind struct {
	Group, Kind string
}

// kubeControllerManager are the components kube-controller-manager's controllers report
// their events as, by queue name, where the name does not say it (the others report as the
// queue name with dashes, then "-controller": replicaset -> replicaset-controller).
var kubeControllerManager = map[string]string{
	"replicationmanager":                  "replication-controller",
	"disruption":                          "controllermanager",
	"disruption_recheck":                  "controllermanager",
	"stale_pod_disruption":                "controllermanager",
	"horizontalpodautoscaler":             "horizontal-pod-autoscaler",
	"garbage_collector_attempt_to_delete": "garbage-collector-controller",
	"garbage_collector_attempt_to_orphan": "garbage-collector-controller",
	"garbage_collector_graph_changes":     "garbage-collector-controller",
	"node_lifecycle_controller":           "node-controller",
	"node_lifecycle_controller_pods":      "node-controller",
	"ttl_jobs_to_delete":                  "ttl-after-finished-controller",
	"job_orphan_pod":                      "job-controller",
	"pvcs":                                "persistentvolume-controller",
	"volumes":                             "persistentvolume-controller",
	"resourcequota_primary":               "resourcequota-controller",
	"resourcequota_priority":              "resourcequota-controller",
	"daemonset-node-updates":              "daemonset-controller",
}

// Components are the names a controller's events are reported by. kube-controller-manager's
// queues report as their controller ("replicaset-controller"); other controllers as their
// name, or their name with "-controller" (controller-runtime's recorders are named by the
// operator, often so).
func Components(runtime, name string) []string {
	dashed := strings.ReplaceAll(name, "_", "-")
	if runtime == "kube-controller-manager" {
		if c, ok := kubeControllerManager[name]; ok {
			return []string{c}
		}
		if strings.HasSuffix(dashed, "-controller") {
			return []string{dashed}
		}
		return []string{dashed + "-controller"}
	}
	out := []string{name}
	if !strings.HasSuffix(dashed, "-controller") {
		out = append(out, dashed+"-controller")
	}
	return out
}
