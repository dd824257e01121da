package logs

import (
	"regexp"
	"strings"
	"sync"
)

// kube-controller-manager's workers report a failed sync through apimachinery's HandleError,
// whose logger is named UnhandledError and names no controller:
//
//	E1126 11:00:00.000000   1 replica_set.go:640] "Unhandled Error" err="sync \"shop/web-7d9\" failed with pods \"web-7d9-x\" is forbidden: exceeded quota: ..." logger="UnhandledError"
//	E1126 11:00:00.000000   1 stateful_set.go:509] "Error syncing StatefulSet, requeuing" err="..." logger="statefulset-controller.UnhandledError" key="shop/db"
//
// The first shape (the ReplicaSet and ReplicationController workers) names the object only in
// the error, and the controller only by klog's source file.

// unhandled is the name apimachinery gives the logger of HandleError.
const unhandled = "UnhandledError"

// syncFailed is the ReplicaSet worker's error: the item's key and the sync's error.
var syncFailed = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)^sync "([^"]*)" failed with (.*)$`) })

// unhandledSync reads the object and the error of a "sync failed" Unhandled Error.
func unhandledSync(e entry) (object, err string, ok bool) {
	if !e.structured || e.msg != "Unhandled Error" {
		return "", "", false
	}
	m := syncFailed().FindStringSubmatch(e.field("err", "error"))
	if m == nil || m[1] == "" {
		return "", "", false
	}
	return m[1], m[2], true
}

// sourceController is the queue a klog source file names: replica_set.go is the replicaset
// queue's worker.
func sourceController(file string) string {
	return strings.ReplaceAll(strings.TrimSuffix(file, ".go"), "_", "")
}

// loggerController is the controller a logger's name gives. kube-controller-manager names each
// controller's logger "<queue>-controller", and HandleError adds ".UnhandledError":
// "statefulset-controller.UnhandledError" is the statefulset queue's, and UnhandledError
// alone names none. Other names are the controller's as they are.
func loggerController(name string) string {
	base, ok := strings.CutSuffix(name, unhandled)
	if !ok {
		return name
	}
	base = strings.TrimSuffix(base, ".")
	return strings.TrimSuffix(base, "-controller")
}
