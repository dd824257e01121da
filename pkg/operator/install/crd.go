package install

import (
	_ "embed"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

//go:embed workloads.demo.ctrldiag.dev.yaml
var crdYAML []byte

// CRDName is the name of the Workload CustomResourceDefinition.
const CRDName = "workloads.demo.ctrldiag.dev"

// CRD returns the Workload CustomResourceDefinition.
func CRD() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(crdYAML, &u.Object); err != nil {
		panic(fmt.Sprintf("embedded CRD %s is not valid YAML: %v", CRDName, err)) // caught by tests
	}
	return u
}
