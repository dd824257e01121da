//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// warningEventsDoc is the report's warningEvents, as -o json has them.
type warningEventsDoc struct {
	WarningEvents *struct {
		Namespaces []string `json:"namespaces"`
		Read       int      `json:"read"`
		Groups     []struct {
			Reason, Kind, Object, Message, Reporter string
			Count                                   int
			LastSeen                                time.Time
			Controllers                             []string
		} `json:"groups"`
		Notes []string `json:"notes"`
	} `json:"warningEvents"`
}

// warningEventsOf decodes the report's warningEvents; the report must carry them.
func warningEventsOf(t *testing.T, r Result) warningEventsDoc {
	t.Helper()
	var d warningEventsDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
	}
	if d.WarningEvents == nil {
		t.Fatalf("the report holds no warningEvents:\n%s", r.Stdout)
	}
	return d
}

// failedCreate is the message of the group of reason FailedCreate on the ReplicaSet object
// that kube-controller-manager's replicaset controller speaks of, or why there is none.
func (d warningEventsDoc) failedCreate(object string) (string, error) {
	for _, g := range d.WarningEvents.Groups {
		if g.Reason != "FailedCreate" || g.Kind != "ReplicaSet" || g.Object != object {
			continue
		}
		replicaset := false
		for _, c := range g.Controllers {
			replicaset = replicaset || strings.HasSuffix(c, " replicaset")
		}
		if !replicaset || g.Count < 1 || g.LastSeen.IsZero() || g.Reporter != "replicaset-controller" {
			return "", fmt.Errorf("the group is not the replicaset controller's: %+v", g)
		}
		return g.Message, nil
	}
	return "", fmt.Errorf("no FailedCreate group on ReplicaSet %s among %+v (notes %q)", object, d.WarningEvents.Groups, d.WarningEvents.Notes)
}

// A ReplicaSet blocked by a ResourceQuota in its own namespace makes kube-controller-manager
// emit FailedCreate Warning events: `report -n kube-system` reads them in every namespace
// (the controller is cluster-wide) and names the reason, the object and the message, in
// -o json and in the text report's section 6; a snapshot keeps them and its report names them
// offline.
func TestReportWarningEventsOfAQuotaBlockedReplicaSet(t *testing.T) {
	crowd(t)
	ns := newQuotaBlockedNamespace(t)
	apply(t, fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: quota-blocked, namespace: %s}
spec:
  replicas: 1
  selector: {matchLabels: {app: quota-blocked}}
  template:
    metadata: {labels: {app: quota-blocked}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}
`, ns))
	eventually(t, 60*time.Second, "kube-controller-manager's FailedCreate event", func() error {
		out := mustKubectl(t, "-n", ns, "get", "events", "--field-selector", "type=Warning,reason=FailedCreate,involvedObject.name=quota-blocked", "-o", "name")
		if strings.TrimSpace(out) == "" {
			return fmt.Errorf("none yet")
		}
		return nil
	})
	object := ns + "/quota-blocked"
	r := ctrldiag(t, "report", "-n", "kube-system", "--interval", "1s", "-o", "json")
	if r.Code != 0 {
		t.Fatalf("report -n kube-system:\n%s", r)
	}
	d := warningEventsOf(t, r)
	msg, err := d.failedCreate(object)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "exceeded quota") {
		t.Errorf("the message does not say why: %q", msg)
	}
	if len(d.WarningEvents.Namespaces) != 1 || d.WarningEvents.Namespaces[0] != "" {
		t.Errorf("events read in %q, want all namespaces for kube-controller-manager", d.WarningEvents.Namespaces)
	}
	// -o wide: the message column, which 80 columns may leave out.
	txt := ctrldiag(t, "report", "-n", "kube-system", "--interval", "1s", "-o", "wide")
	if txt.Code != 0 {
		t.Fatalf("report:\n%s", txt)
	}
	_, events, _ := strings.Cut(txt.Stdout, "Warning events by reason and object")
	for _, want := range []string{"FailedCreate", object, "exceeded quota"} {
		if !strings.Contains(events, want) {
			t.Errorf("the text report's Warning events lack %q:\n%s", want, txt.Stdout)
		}
	}

	file := filepath.Join(t.TempDir(), "events.tar.gz")
	if r := ctrldiag(t, "snapshot", "-n", "kube-system", "--interval", "1s", "-f", file); r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	r = offline(t, "report", "--from-snapshot", file, "-o", "json")
	if r.Code != 0 {
		t.Fatalf("report --from-snapshot:\n%s", r)
	}
	if msg, err := warningEventsOf(t, r).failedCreate(object); err != nil || !strings.Contains(msg, "exceeded quota") {
		t.Errorf("replayed offline: %v, message %q", err, msg)
	}
}

// A user who may read everything report needs but events gets the report, with a note that
// names the permission, and no failure.
func TestReportWarningEventsForbidden(t *testing.T) {
	crowd(t)
	kubeconfig := restrictedReader(t, "ctrldiag-noevents", "events")
	r := reportAs(t, kubeconfig)
	d := warningEventsOf(t, r)
	if len(d.WarningEvents.Groups) != 0 || len(d.WarningEvents.Namespaces) != 0 {
		t.Errorf("events read without the permission: %+v", d.WarningEvents)
	}
	notes := strings.Join(d.WarningEvents.Notes, "\n")
	for _, want := range []string{"needs RBAC verb list on events cluster-wide", "the Warning events in namespace kube-system were not read: needs RBAC verb list on events in namespace kube-system"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}
	txt := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s")
	flat := strings.Join(strings.Fields(txt.Stdout), " ") // the note wraps
	if txt.Code != 0 || !strings.Contains(flat, "needs RBAC verb list on events in namespace kube-system") {
		t.Errorf("the text report does not name the permission:\n%s", txt)
	}
}
