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

// sourceControllerImage is the image the pods of Flux's source-controller show: the pinned
// version hack/thirdparty/build.sh builds.
const sourceControllerImage = "ghcr.io/fluxcd/source-controller:v1.9.6"

// startSourceController runs the pinned Flux source-controller behind a pod of ns, watching ns
// only, as Flux's own manifests run it (metrics on the port named http-prom, the flags in the
// pod's args), with its CRDs installed from its module. It returns once the GitRepository
// controller's workers run: what a test measures starts from a controller at work, not from
// one still syncing its caches on a busy machine.
func startSourceController(t *testing.T, ns string) *behindPod {
	t.Helper()
	bin := filepath.Join(thirdpartyBin(t, "source-controller"), "source-controller")
	applyCRDs(t, "source-controller", "github.com/fluxcd/source-controller", "config/crd/bases")
	storage := t.TempDir()
	flags := func(l map[int32]string) []string {
		return []string{"--watch-all-namespaces=false", "--metrics-addr=" + l[8080], "--health-addr=" + l[9440],
			"--storage-addr=" + l[9090], "--storage-path=" + storage, "--log-encoding=json"}
	}
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "source-controller", Labels: map[string]string{"app": "source-controller"},
		Image: sourceControllerImage, Args: flags(map[int32]string{8080: ":8080", 9440: ":9440", 9090: ":9090"}),
		Ports: []podPort{{"http-prom", 8080}, {"healthz", 9440}, {"http", 9090}},
		Command: func(l map[int32]string) []string {
			return append([]string{"env", "RUNTIME_NAMESPACE=" + ns, bin}, flags(l)...)
		}})
	p.waitLogged(t, 90*time.Second, "the GitRepository controller's workers", `"Starting workers"`, `"controller":"gitrepository"`)
	return p
}

// gitRepositories creates n GitRepositories named prefix-1.. of url.
func gitRepositories(t *testing.T, ns, prefix, url string, n int, timeout string) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: %s-%d, namespace: %s}\n"+
			"spec: {url: %q, interval: 1m, timeout: %s, ref: {branch: main}}\n", prefix, i, ns, url, timeout)
	}
	apply(t, b.String())
}

// Flux's source-controller, real, on the local control plane: a HelmRepository it serves
// raises nothing above info (Flux requeues every object on purpose); GitRepositories whose
// server refuses are named, with Flux's reason, by a report of a 10 s window started as they
// are created; a git server that never answers holds both workers, the other items wait behind
// them, and a 10 s window from then is enough for the advice to name Flux's own knob,
// --concurrent. How long the machine takes around those windows is logged, not asserted.
func TestFluxSourceController(t *testing.T) {
	crowd(t)

	t.Run("healthy", func(t *testing.T) {
		sub(t)
		ns := newNamespace(t)
		charts := t.TempDir()
		if err := os.WriteFile(filepath.Join(charts, "index.yaml"), []byte("apiVersion: v1\nentries: {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		page := filepath.Join(charts, "empty.prom")
		if err := os.WriteFile(page, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		repo := startBehindPod(t, podSpec{Namespace: ns, Name: "charts", Ports: []podPort{{"web", 8080}},
			Command: func(l map[int32]string) []string {
				return []string{env.servepage, "--listen", l[8080], "--file", page, "--files", charts}
			}})
		startSourceController(t, ns)
		apply(t, fmt.Sprintf("apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: charts, namespace: %s}\n"+
			"spec: {url: \"http://%s/\", interval: 10s}\n", ns, repo.Listen[8080]))
		eventually(t, 60*time.Second, "HelmRepository Ready", func() error {
			r := kubectl(t, "-n", ns, "get", "helmrepository", "charts", "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
			if strings.TrimSpace(r.Stdout) != "True" {
				return fmt.Errorf("Ready=%q %s", r.Stdout, r.Stderr)
			}
			return nil
		})
		fs, r := thirdPartyReport(t, ns, "12s")
		for _, f := range fs {
			if f.Severity != "info" {
				t.Errorf("a healthy source-controller: %s %s %s: %s", f.Severity, f.Check, f.Queue, f.Summary)
			}
		}
		if !strings.Contains(r.Stdout, ns+"/source-controller:8080") || r.Code != 0 {
			t.Errorf("the source-controller was not read, or the report did not pass:\n%s", r)
		}
	})

	t.Run("git server refuses", func(t *testing.T) {
		sub(t)
		ns := newNamespace(t)
		startSourceController(t, ns)
		created := time.Now()
		gitRepositories(t, ns, "refused", "http://127.0.0.1:1/x.git", 3, "20s")
		fs, r := thirdPartyReport(t, ns, "10s")
		t.Logf("the report ended %s after the objects were created", time.Since(created).Round(time.Second))
		named := map[string]bool{}
		for _, f := range fs {
			if f.Queue != "gitrepository" || f.Severity == "info" || (f.Check != "persistent-failures" && f.Check != "retry-storm") {
				continue
			}
			for _, e := range f.Evidence {
				for i := 1; i <= 3; i++ {
					obj := fmt.Sprintf("%s/refused-%d", ns, i)
					if strings.Contains(e.Value, obj) && (strings.Contains(e.Value, "GitOperationFailed") || strings.Contains(e.Name, "GitOperationFailed") || strings.Contains(f.Summary, "GitOperationFailed")) {
						named[obj] = true
					}
				}
			}
		}
		if len(named) != 3 {
			t.Errorf("the failing GitRepositories named with their reason: %v\n%s", named, findingLines(fs, r))
		}
	})

	t.Run("git server hangs", func(t *testing.T) {
		sub(t)
		ns := newNamespace(t)
		page := filepath.Join(t.TempDir(), "empty.prom")
		if err := os.WriteFile(page, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		git := startBehindPod(t, podSpec{Namespace: ns, Name: "git", Ports: []podPort{{"web", 8080}},
			Command: func(l map[int32]string) []string {
				return []string{env.servepage, "--listen", l[8080], "--file", page, "--hang"}
			}})
		startSourceController(t, ns)
		// 8 clones that wait a minute each, two at a time: once both workers hold one, the
		// other 6 wait through the window and none leaves the queue.
		created := time.Now()
		gitRepositories(t, ns, "slow", "http://"+git.Listen[8080]+"/x.git", 8, "60s")
		// The wait is the controller's (its cache, a finalizer pass for each object, then the
		// clones), as long as the machine makes it; the report's window starts after it.
		eventually(t, 90*time.Second, "two GitRepositories in the workers", func() error {
			r := kubectl(t, "-n", ns, "get", "gitrepositories", "-o", `jsonpath={range .items[*]}{.status.conditions[?(@.type=="Reconciling")].status}{"\n"}{end}`)
			if n := strings.Count(r.Stdout, "True"); n < 2 {
				return fmt.Errorf("%d reconciling: %s", n, r.Stderr)
			}
			return nil
		})
		inWorkers := time.Since(created)
		fs, r := thirdPartyReport(t, ns, "10s")
		t.Logf("two clones in the workers %s after the objects were created; the report ended %s after that",
			inWorkers.Round(time.Second), (time.Since(created) - inWorkers).Round(time.Second))
		advised := false
		for _, f := range fs {
			if f.Queue == "gitrepository" && f.Check == "workers-saturated" && f.Severity == "warning" && f.Knob != nil && f.Knob.Controller == "FluxCD" &&
				len(f.Knob.Flags) == 1 && f.Knob.Flags[0].Flag == "--concurrent" && f.Knob.Flags[0].Default == "2" {
				advised = true
			}
		}
		if !advised {
			t.Errorf("no workers-saturated on gitrepository advising Flux's --concurrent:\n%s", findingLines(fs, r))
		}
	})
}
