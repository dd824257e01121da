package apiserver

// kubeControllerManagerWrites are the objects kube-controller-manager's controllers create and
// delete, by queue name, beyond the status of the kind they reconcile: the requests that pass
// through the admission webhooks of those resources.
var kubeControllerManagerWrites = map[string][]Write{
	"replicaset":         ops("", "pods", "CREATE", "DELETE"),
	"replicationmanager": ops("", "pods", "CREATE", "DELETE"),
	"daemonset":          append(ops("", "pods", "CREATE", "DELETE"), ops("apps", "controllerrevisions", "CREATE", "UPDATE", "DELETE")...),
	"statefulset": append(append(ops("", "pods", "CREATE", "UPDATE", "DELETE"), ops("", "persistentvolumeclaims", "CREATE")...),
		ops("apps", "controllerrevisions", "CREATE", "UPDATE", "DELETE")...),
	"deployment": ops("apps", "replicasets", "CREATE", "UPDATE", "DELETE"),
	"job":        ops("", "pods", "CREATE", "UPDATE", "DELETE"),
	"cronjob":    ops("batch", "jobs", "CREATE", "DELETE"),
}

func ops(group, resource string, operations ...string) []Write {
	out := make([]Write, 0, len(operations))
	for _, op := range operations {
		out = append(out, Write{Operation: op, Group: group, Resource: resource, Namespaced: true})
	}
	return out
}

// Reconciled is the kind a controller reconciles, as far as admission cares.
type Reconciled struct {
	Group, Resource string
	Namespaced      bool
}

// WritesOf are the writes a controller makes: updates of the kind it reconciles and of its
// status (when that kind is known), creates, updates and deletes of the kinds it owns (found
// from its objects' ownerReferences: the children a reconcile makes), and for
// kube-controller-manager (runtime "kube-controller-manager") the objects the controller
// named by queue creates and deletes.
func WritesOf(runtime, queue string, reconciled *Reconciled, owned []Reconciled) []Write {
	var out []Write
	if reconciled != nil && reconciled.Resource != "" {
		out = append(out,
			Write{Operation: "UPDATE", Group: reconciled.Group, Resource: reconciled.Resource, Namespaced: reconciled.Namespaced},
			Write{Operation: "UPDATE", Group: reconciled.Group, Resource: reconciled.Resource + "/status", Namespaced: reconciled.Namespaced})
	}
	for _, o := range owned {
		for _, op := range []string{"CREATE", "UPDATE", "DELETE"} {
			w := Write{Operation: op, Group: o.Group, Resource: o.Resource, Namespaced: o.Namespaced}
			if !has(out, w) {
				out = append(out, w)
			}
		}
	}
	if runtime == "kube-controller-manager" {
		for _, w := range kubeControllerManagerWrites[queue] {
			if !has(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func has(ws []Write, w Write) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}
