package scenario

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

// ObjectName is the name of the scenario's i-th Workload.
func ObjectName(scenario string, i int) string {
	return fmt.Sprintf("%s-%03d", scenario, i)
}

// Objects returns the Workloads of s in namespace ns, labelled so that they can be listed
// and removed: demo.ctrldiag.dev/managed=true and demo.ctrldiag.dev/scenario=<name>.
func Objects(s Scenario, ns string) []*v1alpha1.Workload {
	out := make([]*v1alpha1.Workload, 0, s.Objects)
	for i := 0; i < s.Objects; i++ {
		spec := s.Spec(i)
		spec.Seed = int64(i)
		out = append(out, &v1alpha1.Workload{
			TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: "Workload"},
			ObjectMeta: metav1.ObjectMeta{
				Name:      ObjectName(s.Name, i),
				Namespace: ns,
				Labels:    map[string]string{controller.LabelManaged: "true", controller.LabelScenario: s.Name},
			},
			Spec: spec,
		})
	}
	return out
}
