//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// certManagerImage is the image the pods of cert-manager's controller show: the pinned version
// hack/thirdparty/build.sh builds.
const certManagerImage = "quay.io/jetstack/cert-manager-controller:v1.21.2"

// startCertManager runs the pinned cert-manager controller behind a pod of ns, for ns only, as
// its chart runs it (its image, its flags in the pod's args, metrics on the port named
// http-metrics), with its CRDs installed from its module.
func startCertManager(t *testing.T, ns string) *behindPod {
	t.Helper()
	bin := filepath.Join(thirdpartyBin(t, "cert-manager"), "cert-manager-controller")
	applyCRDs(t, "cert-manager", "github.com/cert-manager/cert-manager", "deploy/crds")
	flags := func(metrics string) []string {
		return []string{"--kubeconfig=" + env.kubeconfig, "--namespace=" + ns, "--cluster-resource-namespace=" + ns,
			"--leader-elect=false", "--metrics-listen-address=" + metrics}
	}
	return startBehindPod(t, podSpec{Namespace: ns, Name: "cert-manager", Labels: map[string]string{"app.kubernetes.io/name": "cert-manager"},
		Image: certManagerImage, Args: flags(":9402"), Ports: []podPort{{"http-metrics", 9402}},
		Command: func(l map[int32]string) []string { return append([]string{bin}, flags(l[9402])...) }})
}

// certManagerCA is a self-signed root, a CA Issuer of it, and a leaf Certificate it signs.
const certManagerCA = `apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: selfsigned, namespace: NS}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: root-ca, namespace: NS}
spec: {isCA: true, commonName: root-ca, secretName: root-ca, issuerRef: {name: selfsigned, kind: Issuer}}
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: ca, namespace: NS}
spec: {ca: {secretName: root-ca}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: leaf, namespace: NS}
spec: {commonName: leaf.e2e.example.org, dnsNames: [leaf.e2e.example.org], secretName: leaf, issuerRef: {name: ca, kind: Issuer}}
`

// cert-manager's controller, real, on the local control plane, where it exports no queue
// figures, only syncs and errors per controller: a CA chain it issued raises nothing above
// info; a CA Issuer whose Secret does not exist is named, with cert-manager's reason, by a
// report of a 10 s window started as it is created.
func TestCertManager(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	startCertManager(t, ns)
	apply(t, strings.ReplaceAll(certManagerCA, "NS", ns))
	eventually(t, 90*time.Second, "the CA chain Ready", func() error {
		for _, kind := range []string{"issuers", "certificates"} {
			r := kubectl(t, "-n", ns, "get", kind, "-o", `jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}`)
			if strings.Count(r.Stdout, "=True") != 2 {
				return fmt.Errorf("%s: %s %s", kind, r.Stdout, r.Stderr)
			}
		}
		return nil
	})
	fs, r := thirdPartyReport(t, ns, "10s")
	for _, f := range fs {
		if f.Severity != "info" {
			t.Errorf("cert-manager with its certificates issued: %s %s %s: %s", f.Severity, f.Check, f.Queue, f.Summary)
		}
	}
	if !strings.Contains(r.Stdout, ns+"/cert-manager:9402") || r.Code != 0 {
		t.Fatalf("cert-manager was not read, or the report did not pass:\n%s", r)
	}

	created := time.Now()
	apply(t, fmt.Sprintf("apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata: {name: ca-nosecret, namespace: %s}\nspec: {ca: {secretName: does-not-exist}}\n", ns))
	fs, r = thirdPartyReport(t, ns, "10s")
	t.Logf("the report ended %s after the Issuer was created", time.Since(created).Round(time.Second))
	named := false
	for _, f := range fs {
		if f.Check != "persistent-failures" || f.Queue != "issuers" || f.Severity != "warning" {
			continue
		}
		for _, e := range f.Evidence {
			if strings.Contains(e.Name, "ErrGetKeyPair") && strings.Contains(e.Value, ns+"/ca-nosecret") {
				named = true
			}
		}
	}
	if !named {
		t.Errorf("no persistent-failures of cert-manager's issuers naming %s/ca-nosecret with ErrGetKeyPair:\n%s", ns, findingLines(fs, r))
	}
}
