//go:build e2e

package e2e

import (
	"fmt"
	"os"
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
// http-metrics), with its CRDs installed from its module. With profiling, it serves pprof on
// port 6060 (--enable-profiling, --profiler-address, as its chart sets them) and runs 3 workers
// a controller (--concurrent-workers=3).
func startCertManager(t *testing.T, ns string, profiling bool) *behindPod {
	t.Helper()
	bin := filepath.Join(thirdpartyBin(t, "cert-manager"), "cert-manager-controller")
	applyCRDs(t, "cert-manager", "github.com/cert-manager/cert-manager", "deploy/crds")
	ports := []podPort{{"http-metrics", 9402}}
	if profiling {
		ports = append(ports, podPort{"http-profiling", 6060})
	}
	flags := func(listen map[int32]string) []string {
		f := []string{"--kubeconfig=" + env.kubeconfig, "--namespace=" + ns, "--cluster-resource-namespace=" + ns,
			"--leader-elect=false", "--metrics-listen-address=" + listen[9402]}
		if profiling {
			f = append(f, "--enable-profiling", "--profiler-address="+listen[6060], "--concurrent-workers=3")
		}
		return f
	}
	return startBehindPod(t, podSpec{Namespace: ns, Name: "cert-manager", Labels: map[string]string{"app.kubernetes.io/name": "cert-manager"},
		Image: certManagerImage, Args: flags(map[int32]string{9402: ":9402", 6060: "0.0.0.0:6060"}), Ports: ports,
		Command: func(l map[int32]string) []string { return append([]string{bin}, flags(l)...) }})
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
	startCertManager(t, ns, false)
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

// ACME Issuers whose server accepts the request and never answers hold cert-manager's issuers
// workers in the ACME client's 90 s request. Once they have been blocked a minute, the
// goroutine dump (read through the pprof port the pod's arguments name) shows all 3 workers of
// the issuers controller blocked, and the report says so, with the knob the pod's arguments
// set (--concurrent-workers=3). Before that minute, nothing says they are all blocked.
func TestCertManagerWorkersBlocked(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(t.TempDir(), "empty.prom")
	if err := os.WriteFile(page, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	acme := startBehindPod(t, podSpec{Namespace: ns, Name: "acme", Ports: []podPort{{"web", 8080}},
		Command: func(l map[int32]string) []string {
			return []string{env.servepage, "--listen", l[8080], "--file", page, "--hang"}
		}})
	startCertManager(t, ns, true)
	var issuers strings.Builder
	for i := range 4 {
		fmt.Fprintf(&issuers, "---\napiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata: {name: acme-%d, namespace: %s}\n"+
			"spec: {acme: {server: 'http://%s/directory', privateKeySecretRef: {name: acme-%d}, solvers: [{http01: {ingress: {}}}]}}\n",
			i, ns, acme.Listen[8080], i)
	}
	created := time.Now()
	apply(t, issuers.String())

	fs, r := thirdPartyReport(t, ns, "2s")
	for _, f := range fs {
		if f.Check == "workers-blocked" {
			t.Errorf("workers-blocked before any worker was blocked a minute:\n%s", findingLines(fs, r))
		}
	}
	// The first round of requests ends 90 s after it started, the next starts 5 s later (the
	// back-off): the minute shows from 60 to 90 s into each, and 240 s holds two rounds.
	var found *thirdPartyFinding
	eventually(t, 240*time.Second, "workers-blocked on cert-manager's issuers", func() error {
		fs, r = thirdPartyReport(t, ns, "2s")
		for i, f := range fs {
			if f.Check == "workers-blocked" {
				found = &fs[i]
				return nil
			}
		}
		return fmt.Errorf("not yet:\n%s", findingLines(fs, r))
	})
	t.Logf("workers-blocked %s after the Issuers were created", time.Since(created).Round(time.Second))
	f := found
	if f.Queue != "issuers" || f.Severity != "warning" || !strings.Contains(f.Summary, "all 3 workers of issuers") ||
		f.Knob == nil || f.Knob.Controller != "cert-manager" || len(f.Knob.Flags) != 1 ||
		f.Knob.Flags[0].Flag != "--concurrent-workers" || f.Knob.Flags[0].Current != "3" {
		t.Errorf("workers-blocked does not name the issuers controller and --concurrent-workers=3:\n%s", findingLines(fs, r))
	}
}
