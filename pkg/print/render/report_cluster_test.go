package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// A report from a Prometheus server says, in each section that needs the cluster itself, why
// it is absent, or, when the cluster was read, that the pods are as they are now.
func TestReportSaysWhyTheClusterIsAbsent(t *testing.T) {
	why := "the report is about 2026-03-02T02:00:00Z, 1h0m0s ago, and the cluster can only be read as it is now"
	r := view.Report{ClusterAbsent: why, ResourcesNote: "the metrics API was not read: " + why}
	var b bytes.Buffer
	if err := ReportText(&b, r); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"Absent, and so are the Leases: " + why + ".", "Generation lag absent: " + why + ".",
		"The metrics API was not read: " + why + ".", "6. OBJECTS THE CONTROLLERS RECONCILE Absent: " + why + "."} {
		if !strings.Contains(out, want) {
			t.Errorf("the text does not say %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(out, "No pods: the targets were read directly") || strings.Contains(out, "there is no cluster to list objects in") {
		t.Errorf("the text gives the generic reason beside the real one:\n%s", b.String())
	}

	b.Reset()
	r = view.Report{ClusterRead: "the kubeconfig's cluster (https://10.0.0.1:6443) as it was at 2026-03-02T03:00:00Z",
		Pods: []view.Pod{{Namespace: "ops", Name: "op-7d9f", Phase: "Running", Ready: true, Restarts: 2}}}
	if err := ReportText(&b, r); err != nil {
		t.Fatal(err)
	}
	out = strings.Join(strings.Fields(b.String()), " ")
	if want := "Read from the kubeconfig's cluster (https://10.0.0.1:6443) as it was at 2026-03-02T03:00:00Z: restarts and last terminations are the pods' now"; !strings.Contains(out, want) {
		t.Errorf("the text does not say %q:\n%s", want, b.String())
	}
}
