package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API group and version of the reference operator's CRD.
var GroupVersion = schema.GroupVersion{Group: "demo.ctrldiag.dev", Version: "v1alpha1"}

// Resource is the plural resource name of Workload.
const Resource = "workloads"

var (
	// SchemeBuilder registers the types of this package.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds Workload and WorkloadList to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Workload{}, &WorkloadList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
