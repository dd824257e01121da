package goroutines

import "strings"

// certManagerWorker is the loop every worker of cert-manager's controllers runs
// (pkg/controller.(*controller).worker): between two items it waits in the workqueue's Get,
// idle; otherwise it runs the item of the controller whose ProcessItem is on its stack.
const certManagerWorker = "github.com/cert-manager/cert-manager/pkg/controller.(*controller).worker"

// certManagerControllers is the prefix of the packages of cert-manager's controllers.
const certManagerControllers = "github.com/cert-manager/cert-manager/pkg/controller/"

// certManagerNames are the names cert-manager gives the controllers of the packages whose
// path under pkg/controller does not say it (the name is the metrics' controller label and
// the name in its log); the issuers' controllers of certificaterequests/X and
// certificatesigningrequests/X are "certificaterequests-issuer-X" and
// "certificatesigningrequests-issuer-X".
var certManagerNames = map[string]string{
	"acmechallenges":               "challenges",
	"acmeorders":                   "orders",
	"certificates/revisionmanager": "certificates-revision-manager",
	"certificates/requestmanager":  "certificates-request-manager",
	"certificates/keymanager":      "certificates-key-manager",
	"certificaterequests/approver": "certificaterequests-approver",
	"certificate-shim/ingresses":   "ingress-shim",
	"certificate-shim/gateways":    "gateway-shim",
	"certificate-shim/listenerset": "listenerset",
}

// controllerOf is the controller whose item a worker's stack runs, when the stack names it:
// for cert-manager, the outermost frame of a package under pkg/controller/, named as
// cert-manager names that controller ("issuers", "orders", "certificates-issuing"); "" for
// other stacks.
func controllerOf(fs []Frame) string {
	for i := len(fs) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(fs[i].Func, certManagerControllers)
		if !ok {
			continue
		}
		// "issuers.(*controller).ProcessItem", "certificates/issuing.(*controller).ProcessItem":
		// the package ends at the first dot after the last slash.
		last := strings.LastIndexByte(rest, '/') + 1
		dot := strings.IndexByte(rest[last:], '.')
		if dot < 0 {
			continue
		}
		pkg := rest[:last+dot]
		if name, ok := certManagerNames[pkg]; ok {
			return name
		}
		for _, kind := range []string{"certificaterequests/", "certificatesigningrequests/"} {
			if issuer, ok := strings.CutPrefix(pkg, kind); ok {
				return strings.TrimSuffix(kind, "/") + "-issuer-" + issuer
			}
		}
		return strings.ReplaceAll(pkg, "/", "-")
	}
	return ""
}
