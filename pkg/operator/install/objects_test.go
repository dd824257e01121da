package install

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/golden"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func render(t *testing.T, o Options) []byte {
	t.Helper()
	objs, err := Objects(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for i, u := range objs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(y)
	}
	return b.Bytes()
}

func TestObjectsGolden(t *testing.T) {
	for name, o := range map[string]Options{
		"secure.yaml": {Namespace: "ctrldiag-system", Name: "ctrldiag-operator", Image: "ghcr.io/ctrldiag/kubectl-ctrldiag:v0.1.0",
			MetricsSecure: true, MemoryLimit: resource.MustParse("256Mi")},
		"plain-scenario.yaml": {Namespace: "demo", Name: "demo-op", Image: "example.com/ctrldiag:dev", Scenario: "slow",
			Workers: 4, MemoryLimit: resource.MustParse("128Mi")},
	} {
		t.Run(name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", name), render(t, o), *update, "go test ./pkg/operator/install -update")
		})
	}
}

func TestRBACIsLeastPrivilege(t *testing.T) {
	o := Options{Namespace: "ns", Name: "op", MemoryLimit: resource.MustParse("1Gi")}
	for _, obj := range rbac(o) {
		var rules []rbacv1.PolicyRule
		switch r := obj.(type) {
		case *rbacv1.Role:
			rules = r.Rules
		case *rbacv1.ClusterRole:
			rules = r.Rules
		}
		for _, rule := range rules {
			for _, list := range [][]string{rule.Verbs, rule.Resources, rule.APIGroups} {
				for _, v := range list {
					if v == "*" {
						t.Errorf("%T %v grants a wildcard", obj, rule)
					}
				}
			}
		}
	}
}

func TestServiceFollowsKubebuilder(t *testing.T) {
	s := service(Options{Namespace: "ns", Name: "op", MetricsSecure: true})
	if s.Name != "op-metrics-service" || s.Labels["control-plane"] != "controller-manager" ||
		s.Spec.Ports[0].Name != "https" || s.Spec.Ports[0].Port != SecureMetricsPort {
		t.Errorf("service = %+v", s)
	}
}

func TestCRDIsValid(t *testing.T) {
	crd := CRD()
	if crd.GetName() != CRDName || crd.GetKind() != "CustomResourceDefinition" {
		t.Errorf("CRD = %s %s", crd.GetKind(), crd.GetName())
	}
}
