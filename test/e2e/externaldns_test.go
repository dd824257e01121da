//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// externalDNSImage is the image the pods of external-dns show: the pinned version
// hack/thirdparty/build.sh builds.
const externalDNSImage = "registry.k8s.io/external-dns/external-dns:v0.22.0"

// startExternalDNS runs the pinned external-dns behind a pod of ns as its chart runs it (its
// image, its flags in the pod's args, port "http" 7979 where it serves /metrics): the inmemory
// provider, the Services of ns as its source, a sync every interval, with the credentials of
// kubeconfig.
func startExternalDNS(t *testing.T, ns, kubeconfig, interval string) *behindPod {
	t.Helper()
	bin := filepath.Join(thirdpartyBin(t, "external-dns"), "external-dns")
	flags := func(metrics string) []string {
		return []string{"--kubeconfig=" + kubeconfig, "--provider=inmemory", "--source=service", "--namespace=" + ns,
			"--publish-internal-services", "--inmemory-zone=e2e.example.org", "--policy=sync", "--registry=txt",
			"--txt-owner-id=e2e", "--interval=" + interval, "--metrics-address=" + metrics, "--log-format=json"}
	}
	return startBehindPod(t, podSpec{Namespace: ns, Name: "external-dns", Labels: map[string]string{"app.kubernetes.io/name": "external-dns"},
		Image: externalDNSImage, Args: flags(":7979"), Ports: []podPort{{"http", 7979}},
		Command: func(l map[int32]string) []string { return append([]string{bin}, flags(l[7979])...) }})
}

var lastSyncLine = regexp.MustCompile(`(?m)^external_dns_controller_last_sync_timestamp_seconds ([0-9.e+]+)$`)

// lastSync is external-dns' last successful sync, read from its page through the API server.
func lastSync(t *testing.T, ns string) (float64, error) {
	r := kubectl(t, "get", "--raw", "/api/v1/namespaces/"+ns+"/pods/external-dns:7979/proxy/metrics")
	m := lastSyncLine.FindStringSubmatch(r.Stdout)
	if m == nil {
		return 0, fmt.Errorf("no last sync on its page: %s", r.Stderr)
	}
	return strconv.ParseFloat(m[1], 64)
}

// external-dns, real, on the local control plane, where it works no queue: syncing a Service's
// record every 3 s it raises nothing above info; with a ServiceAccount that may read Services
// but not the pods, endpoints and nodes its source also watches, it never syncs (and exits after
// a minute), and a report of a 10 s window from its start says it has not synced, with its
// --interval in the advice. Three periods (9 s) are what not-syncing waits for: the window,
// which starts after the process, holds them whatever the machine's speed.
func TestExternalDNS(t *testing.T) {
	crowd(t)

	t.Run("syncing", func(t *testing.T) {
		sub(t)
		ns := newNamespace(t)
		apply(t, fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: %s, annotations: {external-dns.kubernetes.io/hostname: web.e2e.example.org}}\n"+
			"spec: {ports: [{port: 80}]}\n", ns))
		startExternalDNS(t, ns, env.kubeconfig, "3s")
		eventually(t, 60*time.Second, "external-dns synced", func() error {
			if v, err := lastSync(t, ns); err != nil || !(v > 0) {
				return fmt.Errorf("last sync %g: %v", v, err)
			}
			return nil
		})
		fs, r := thirdPartyReport(t, ns, "10s")
		for _, f := range fs {
			if f.Severity != "info" {
				t.Errorf("a syncing external-dns: %s %s: %s", f.Severity, f.Check, f.Summary)
			}
		}
		if !strings.Contains(r.Stdout, ns+"/external-dns:7979") || r.Code != 0 {
			t.Errorf("external-dns was not read, or the report did not pass:\n%s", r)
		}
	})

	t.Run("sources never ready", func(t *testing.T) {
		sub(t)
		ns := newNamespace(t)
		mustKubectl(t, "-n", ns, "create", "serviceaccount", "external-dns")
		mustKubectl(t, "-n", ns, "create", "role", "services-only", "--verb=get,list,watch", "--resource=services")
		mustKubectl(t, "-n", ns, "create", "rolebinding", "services-only", "--role=services-only", "--serviceaccount="+ns+":external-dns")
		kubeconfig := tokenKubeconfig(t, strings.TrimSpace(mustKubectl(t, "-n", ns, "create", "token", "external-dns")))
		started := time.Now()
		startExternalDNS(t, ns, kubeconfig, "3s")
		fs, r := thirdPartyReport(t, ns, "10s")
		t.Logf("the report ended %s after external-dns started", time.Since(started).Round(time.Second))
		found := false
		for _, f := range fs {
			if f.Check != "not-syncing" {
				continue
			}
			found = true
			if f.Severity != "warning" || !strings.Contains(f.Summary, "has not synced once since it started") ||
				!strings.Contains(f.Summary, "its sources are not ready") {
				t.Errorf("not-syncing: %s %s", f.Severity, f.Summary)
			}
			if f.Knob == nil || f.Knob.Controller != "external-dns" || len(f.Knob.Flags) != 1 || f.Knob.Flags[0].Flag != "--interval" ||
				f.Knob.Flags[0].Default != "1m" || f.Knob.Flags[0].Current != "3s" {
				t.Errorf("not-syncing advises %+v, want external-dns' --interval, now 3s", f.Knob)
			}
		}
		if !found {
			t.Errorf("no not-syncing finding on an external-dns that never synced:\n%s", r.Stdout)
		}
	})
}
