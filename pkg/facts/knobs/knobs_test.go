package knobs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every entry of knobs.yaml is complete: a title, a sign to tell it by, knobs each of a known
// size with flags and defaults; a queue is sized by one knob at most per size, and no sign
// tells two controllers.
func TestTableIsComplete(t *testing.T) {
	tab := Load()
	if len(tab.Sizes) == 0 || len(tab.Controllers) == 0 {
		t.Fatalf("empty table: %+v", tab)
	}
	for _, s := range tab.Sizes {
		if s.Name == "" || len(s.Checks) == 0 {
			t.Errorf("size %+v: a name and checks", s)
		}
	}
	signs := map[string]string{}
	for _, c := range tab.Controllers {
		sg := c.Signs
		if c.Title == "" || len(sg.Images)+len(sg.Binaries)+len(sg.Metrics)+len(sg.Queues) == 0 || len(c.Knobs) == 0 {
			t.Errorf("controller %q: a title, a sign and a knob", c.Title)
		}
		for kind, list := range [][]string{sg.Images, sg.Binaries, sg.Metrics, sg.Queues} {
			for _, s := range list {
				key := string(rune('0'+kind)) + s
				if other, dup := signs[key]; dup || s == "" {
					t.Errorf("sign %q of %s also tells %s", s, c.Title, other)
				}
				signs[key] = c.Title
			}
		}
		sized := map[string]bool{} // size + queue
		for _, k := range c.Knobs {
			if tab.checksOf(k.Sizes) == nil {
				t.Errorf("%s: knob %+v sizes %q, not in sizes", c.Title, k, k.Sizes)
			}
			if len(k.Flags) == 0 {
				t.Errorf("%s: knob %+v has no flag", c.Title, k)
			}
			for _, f := range k.Flags {
				if !strings.HasPrefix(f.Flag, "--") || strings.ContainsAny(f.Flag, " =") || f.Default == "" {
					t.Errorf("%s: flag %+v: want --name and a default", c.Title, f)
				}
			}
			queues := k.Queues
			if len(queues) == 0 {
				queues = []string{"*"}
			}
			for _, q := range queues {
				if sized[k.Sizes+" "+q] {
					t.Errorf("%s: %s of queue %s sized twice", c.Title, k.Sizes, q)
				}
				sized[k.Sizes+" "+q] = true
			}
			if k.Note != "" && !strings.HasSuffix(k.Note, ".") {
				t.Errorf("%s: note %q is a sentence: end it with a period", c.Title, k.Note)
			}
		}
	}
}

func TestRecognise(t *testing.T) {
	for _, tc := range []struct {
		name     string
		seen     Seen
		want, by string // want "" = not recognised
	}{
		{"flux image with tag", Seen{Image: "ghcr.io/fluxcd/source-controller:v1.4.1"}, "FluxCD", "image ghcr.io/fluxcd/source-controller:v1.4.1"},
		{"flux image by digest, from a mirror", Seen{Image: "mirror.example.com/cache/fluxcd/kustomize-controller@sha256:0123"}, "FluxCD", ""},
		{"registry with a port", Seen{Image: "localhost:5000/cluster-api/cluster-api-controller"}, "Cluster API", ""},
		{"a name that only ends like a sign", Seen{Image: "example.com/notfluxcd/source-controller:v1"}, "", ""},
		{"static pod command", Seen{Image: "example.com/k8s:v1", Args: []string{"kube-controller-manager", "--kube-api-qps=50"}}, "kube-controller-manager", "program kube-controller-manager"},
		{"argo's program as first argument", Seen{Image: "quay.io/argoproj/argocd:v3.1.0", Args: []string{"/usr/local/bin/argocd-application-controller"}}, "the Argo CD application controller", ""},
		{"argo's server is not the controller", Seen{Image: "quay.io/argoproj/argocd:v3.1.0", Args: []string{"/usr/local/bin/argocd-server"}}, "", ""},
		{"metric family", Seen{Families: map[string]bool{"certmanager_clock_time_seconds_gauge": true}}, "cert-manager", "metric certmanager_clock_time_seconds_gauge"},
		{"queue name", Seen{Queues: []string{"deployment", "garbage_collector_attempt_to_delete"}}, "kube-controller-manager", "queue garbage_collector_attempt_to_delete"},
		{"an operator of its own", Seen{Image: "example.com/acme/widget-operator:v1", Queues: []string{"widget", "deployment"},
			Families: map[string]bool{"controller_runtime_reconcile_total": true}}, "", ""},
		// Infrastructure providers import Cluster API's clustercache (and its metrics) but have
		// flags of their own.
		{"a Cluster API infrastructure provider", Seen{Image: "registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.8.0",
			Families: map[string]bool{"capi_cluster_cache_healthcheck": true}, Queues: []string{"awscluster", "awsmachine"}}, "", ""},
		{"nothing at all", Seen{}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := Recognise(tc.seen)
			got := ""
			if ok {
				got = m.Controller.Title
			}
			if got != tc.want || tc.by != "" && m.By != tc.by {
				t.Errorf("got %q by %q, want %q by %q", got, m.By, tc.want, tc.by)
			}
		})
	}
}

func TestAdvise(t *testing.T) {
	kcm, _ := Recognise(Seen{Args: []string{"kube-controller-manager", "--concurrent-deployment-syncs", "10", "--concurrent_rc_syncs=7",
		"--kube-api-qps=40", "--kube-api-qps=50", "--leader-elect"}})
	for _, tc := range []struct {
		check, queue, want string
	}{
		{"workers-saturated", "deployment", "--concurrent-deployment-syncs of kube-controller-manager (now 10, default 5)"},
		{"backlog-growing", "replicationmanager", "--concurrent_rc_syncs of kube-controller-manager (now 7, default 5)"},
		{"workers-saturated", "garbage_collector_attempt_to_orphan", "--concurrent-gc-syncs of kube-controller-manager (default 20)"},
		{"client-throttling", "", "--kube-api-qps (now 50, default 20) and --kube-api-burst (default 30) of kube-controller-manager"},
		// No knob: one goroutine drains the graph changes; slow work has no flag to raise.
		{"workers-saturated", "garbage_collector_graph_changes", ""},
		{"slow-reconcile", "deployment", ""},
		{"client-throttling", "deployment", "--kube-api-qps (now 50, default 20) and --kube-api-burst (default 30) of kube-controller-manager"},
	} {
		a, ok := kcm.Advise(tc.check, tc.queue)
		if got := a.String(); ok != (tc.want != "") || ok && got != tc.want {
			t.Errorf("%s on %q: got %q (%v), want %q", tc.check, tc.queue, got, ok, tc.want)
		}
	}
	// The pflag spelling with dashes sets the flag the table spells with underscores.
	if v := FlagValue([]string{"--concurrent-rc-syncs=3"}, "--concurrent_rc_syncs"); v != "3" {
		t.Errorf("--concurrent-rc-syncs=3: got %q", v)
	}
	if _, ok := (Match{}).Advise("workers-saturated", "deployment"); ok {
		t.Error("no controller, no advice")
	}
}

// docs/guide/knobs.md shows the table as Markdown renders it.
func TestGuideListsTheKnobs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "guide", "knobs.md"))
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- BEGIN knobs", "<!-- END knobs -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/guide/knobs.md has no %q ... %q block", begin, end)
	}
	block := s[i:j]
	block = block[strings.Index(block, "\n")+1:]
	if md := Markdown(); block != md {
		t.Errorf("docs/guide/knobs.md's knobs differ from knobs.yaml; put this between the markers:\n%s\nit has:\n%s", md, block)
	}
}

func TestWantedKeepsOnlyMetricSigns(t *testing.T) {
	if !Wanted("argocd_app_reconcile") || !Wanted("certmanager_clock_time_seconds") {
		t.Error("metric signs must be kept")
	}
	for _, f := range []string{"workqueue_depth", "gotk_reconcile_duration_seconds", "capi_cluster_cache_healthcheck", "argocd_app_info", ""} {
		if Wanted(f) {
			t.Errorf("%q is no sign", f)
		}
	}
	if !slices.Contains(Load().Controllers[0].Signs.Binaries, "kube-controller-manager") {
		t.Error("the table starts with kube-controller-manager")
	}
}
