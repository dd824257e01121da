//go:build e2e && scale

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// The scale tests measure; they assert what they count (targets read, API requests made),
// never a time. They print "BENCH key=value ..." lines that hack/benchratio (make bench) puts
// into BENCHMARKS.md. They take minutes on a 2-core machine (kwok readies 200 pods in about a
// minute; 5,000 pods take a while to create and delete), so they are built only with the
// build tag scale (go test -tags e2e,scale), which make bench uses, and not in make test.

// TestFanOut reads 200 targets at once: 200 pods that one local process stands behind, each on
// its own port, scraped through the API server's proxy with `queues -n NS --interval 0`. It
// checks that every target gives rows and measures the wall time against the slowest of the
// single-target runs, and the peak RSS against that of one target.
func TestFanOut(t *testing.T) {
	const targets, basePort, runs = 200, 20000, 3
	ns := newNamespace(t)
	ip := allocatePodIP(t)
	page := filepath.Join(env.root, "testdata/pages/controller-runtime-1.prom")
	proc := startLocal(t, "fanout", ip, []string{env.servepage, "-listen", net.JoinHostPort(ip, strconv.Itoa(basePort)),
		"-ports", strconv.Itoa(targets), "-file", page})
	var manifest strings.Builder
	for i := range targets {
		pod := map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": fmt.Sprintf("fan-%03d", i), "namespace": ns,
				"annotations": map[string]string{"ctrldiag.dev/pod-ip": ip}},
			"spec": map[string]any{
				"nodeName": "ctrldiag-node", "terminationGracePeriodSeconds": 0,
				"containers": []map[string]any{{"name": "main", "image": "ctrldiag.dev/behind-pod:test",
					"ports": []map[string]any{{"name": "metrics", "containerPort": basePort + i}}}},
			},
		}
		b, _ := json.Marshal(pod)
		manifest.Write(append(b, '\n'))
	}
	created := time.Now()
	createFromStdin(t, manifest.String())
	if r := kubectl(t, "-n", ns, "wait", "--for=condition=Ready", "pod", "--all", "--timeout=100s"); r.Code != 0 {
		t.Fatalf("pods not Ready:\n%s", r)
	}
	t.Logf("%d pods created and Ready in %s", targets, time.Since(created).Round(time.Millisecond))
	proc.waitListening(t, net.JoinHostPort(ip, strconv.Itoa(basePort)))
	proc.waitListening(t, net.JoinHostPort(ip, strconv.Itoa(basePort+targets-1)))

	// Every target is read: one JSON run, checked.
	r := ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "json")
	if r.Code != 0 {
		t.Fatalf("queues over %d targets:\n%s", targets, r)
	}
	var list struct {
		Items  []struct{ Target string }
		Errors []struct{ Target, Error string }
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		t.Fatalf("queues -o json: %v\n%s", err, r)
	}
	read := map[string]bool{}
	for _, it := range list.Items {
		read[it.Target] = true
	}
	if len(read) != targets || len(list.Errors) != 0 {
		t.Fatalf("%d of %d targets gave rows; errors: %v", len(read), targets, list.Errors)
	}

	waitQuiet(t)
	singles := []string{"pod/fan-000", fmt.Sprintf("pod/fan-%03d", targets/2), fmt.Sprintf("pod/fan-%03d", targets-1)}
	for _, concurrency := range []int{8, 16, 32, 64} {
		var walls, slowest, cpu []float64
		var rss, singleRSS int64
		for range runs {
			var worst time.Duration
			for _, pod := range singles {
				r, u := runMeasured(t, env.kubeconfig, "kubectl", "ctrldiag", "queues", "-n", ns, pod, "--interval", "0")
				if r.Code != 0 {
					t.Fatalf("queues %s:\n%s", pod, r)
				}
				worst = max(worst, u.Wall)
				singleRSS = max(singleRSS, u.MaxRSS)
			}
			r, u := runMeasured(t, env.kubeconfig, "kubectl", "ctrldiag", "queues", "-n", ns, "--interval", "0",
				"--concurrency", strconv.Itoa(concurrency))
			if r.Code != 0 || strings.Contains(r.Stdout, "ERROR") {
				t.Fatalf("queues over %d targets:\n%s", targets, r)
			}
			walls = append(walls, float64(u.Wall))
			cpu = append(cpu, float64(u.CPU))
			slowest = append(slowest, float64(worst))
			rss = max(rss, u.MaxRSS)
		}
		wall, single := medianOf(walls), medianOf(slowest)
		t.Logf("BENCH bench=fanout targets=%d concurrency=%d runs=%d wall_ms=%.0f slowest_single_ms=%.0f ratio=%.2f within_2x=%t rss_mib=%.1f single_rss_mib=%.1f cpu_ms=%.0f",
			targets, concurrency, runs, wall/1e6, single/1e6, wall/single, wall <= 2*single, float64(rss)/(1<<20), float64(singleRSS)/(1<<20), medianOf(cpu)/1e6)
	}
}

// createFromStdin creates the objects of a JSON stream as admin.
func createFromStdin(t *testing.T, objects string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "objects.json")
	if err := os.WriteFile(path, []byte(objects), 0o600); err != nil {
		t.Fatal(err)
	}
	mustKubectl(t, "create", "-f", path)
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestDiscoveryPages: with thousands of pods, `targets` lists them in pages of 500 with one list
// call per page, selectors applied by the API server, and no request per pod. A proxy in front
// of the API server counts the requests. CTRLDIAG_E2E_DISCOVERY_PODS sets the number of pods
// (default 5000).
func TestDiscoveryPages(t *testing.T) {
	const pageSize = 500
	n := 5000
	if v := os.Getenv("CTRLDIAG_E2E_DISCOVERY_PODS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("CTRLDIAG_E2E_DISCOVERY_PODS=%q: %v", v, err)
		}
	}
	ns := newNamespace(t)
	cfg, err := clientcmd.BuildConfigFromFlags("", env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 2000, 2000
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	createHeldPods(t, client, ns, n)
	createTime := time.Since(start)
	t.Logf("created %d pods in %s", n, createTime.Round(time.Millisecond))

	proxy := startAPIGate(t, nil)
	kubeconfig := proxy.kubeconfig(t)

	// One namespace: the count is exact.
	proxy.reset()
	if r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "targets", "-n", ns); r.Code != 0 {
		t.Fatalf("targets -n %s:\n%s", ns, r)
	}
	nsReqs := proxy.reset()
	nsLists := podLists(t, nsReqs, "/api/v1/namespaces/"+ns+"/pods", pageSize)
	if want := int(math.Ceil(float64(n) / pageSize)); nsLists != want {
		t.Errorf("targets -n: %d pod list calls for %d pods, want %d (pages of %d)\n%s", nsLists, n, want, pageSize, strings.Join(nsReqs, "\n"))
	}

	// A label selector goes to the API server.
	if r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "targets", "-n", ns, "-l", "app=none"); r.Code != 0 {
		t.Fatalf("targets -l:\n%s", r)
	}
	selReqs := proxy.reset()
	if !slices.ContainsFunc(selReqs, func(r string) bool {
		return strings.HasPrefix(r, "GET /api/v1/namespaces/"+ns+"/pods?") && strings.Contains(r, "labelSelector=app%3Dnone")
	}) {
		t.Errorf("targets -l app=none: no pod list with the label selector:\n%s", strings.Join(selReqs, "\n"))
	}

	// All namespaces: other tests may add pods meanwhile, so the count lies between the pages
	// of the pods before and after.
	before := countPods(t, client)
	if r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "targets", "-A"); r.Code != 0 {
		t.Fatalf("targets -A:\n%s", r)
	}
	allReqs := proxy.reset()
	after := countPods(t, client)
	allLists := podLists(t, allReqs, "/api/v1/pods", pageSize)
	lo, hi := int(math.Ceil(float64(min(before, after))/pageSize)), int(math.Ceil(float64(max(before, after))/pageSize))
	if allLists < lo || allLists > hi {
		t.Errorf("targets -A: %d pod list calls for %d..%d pods, want %d..%d\n%s", allLists, before, after, lo, hi, strings.Join(allReqs, "\n"))
	}
	for _, r := range append(nsReqs, allReqs...) {
		if strings.Contains(r, "/pods/") {
			t.Errorf("a request for one pod: %s", r)
		}
		if strings.Contains(r, "/services?") && !strings.Contains(r, "labelSelector=control-plane%3Dcontroller-manager") {
			t.Errorf("services listed without the kubebuilder label selector: %s", r)
		}
	}
	t.Logf("BENCH bench=discovery pods=%d create_s=%.1f limit=%d ns_pod_lists=%d ns_other=%d ns_total=%d all_pods=%d all_pod_lists=%d all_other=%d all_total=%d",
		n, createTime.Seconds(), pageSize, nsLists, len(nsReqs)-nsLists, len(nsReqs), after, allLists, len(allReqs)-allLists, len(allReqs))
}

// createHeldPods creates n pods in ns, in parallel. A scheduling gate holds them Pending, so
// that neither the scheduler nor kwok works on them: discovery lists them all the same.
func createHeldPods(t *testing.T, client kubernetes.Interface, ns string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	work := make(chan int)
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				pod := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("held-%05d", i), Labels: map[string]string{"app": "held"}},
					Spec: corev1.PodSpec{
						SchedulingGates: []corev1.PodSchedulingGate{{Name: "ctrldiag.dev/hold"}},
						Containers:      []corev1.Container{{Name: "main", Image: "ctrldiag.dev/held:test"}},
					},
				}
				if _, err := client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
			}
		}()
	}
feed:
	for i := range n {
		select {
		case work <- i:
		case err := <-errs:
			t.Errorf("create pod: %v", err)
			break feed
		}
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatalf("create pod: %v", err)
	default:
	}
	if t.Failed() {
		t.FailNow()
	}
}

func countPods(t *testing.T, client kubernetes.Interface) int {
	t.Helper()
	n := 0
	opts := metav1.ListOptions{Limit: 500}
	for {
		l, err := client.CoreV1().Pods("").List(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		n += len(l.Items)
		if l.Continue == "" {
			return n
		}
		opts.Continue = l.Continue
	}
}

// podLists counts the GET list calls of path in reqs and checks that each asks for a page.
func podLists(t *testing.T, reqs []string, path string, limit int) int {
	t.Helper()
	n := 0
	for _, r := range reqs {
		method, uri, _ := strings.Cut(r, " ")
		p, query, _ := strings.Cut(uri, "?")
		if method != "GET" || p != path {
			continue
		}
		q, _ := url.ParseQuery(query)
		if q.Get("watch") == "true" {
			continue
		}
		n++
		if q.Get("limit") != strconv.Itoa(limit) {
			t.Errorf("list call without limit=%d: %s", limit, r)
		}
	}
	return n
}
