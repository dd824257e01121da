// Package collect is the source of metrics pages: saved pages, URLs, and targets in a cluster,
// found by discovery, checked against RBAC, each with the transport (proxy, port-forward,
// direct) that can reach it and the metrics credentials it needs. It implements source.Source
// and, for a cluster, source.Cluster; WithCluster adds that cluster to targets read elsewhere
// (a Prometheus server) when it is the one they were read from.
//
// TokenFromServiceAccount mints the metrics token of --token-from-sa (a TokenRequest, the one
// write the plugin makes).
package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Config says what to read.
type Config struct {
	// URLs and Files are read directly; Files entries are --from-file values (ParseFiles).
	URLs  []string
	Files []string
	Stdin io.Reader
	// HTTP holds the metrics endpoints' credentials and TLS settings, and the body cap.
	HTTP scrape.HTTPConfig
	// Cluster turns discovery on; Discover says where to look.
	Cluster  bool
	Discover discover.Options
	Via      target.Via
	// TokenFromSA ("NS/NAME") mints the metrics token with TokenRequest; UseKubeconfigToken
	// takes the kubeconfig's bearer token.
	TokenFromSA        string
	UseKubeconfigToken bool
	// KeepForwards keeps each pod's port-forward open across Reads, until Close.
	KeepForwards bool
}

// Kube is the cluster connection, built only when the cluster is used.
type Kube struct {
	Config *rest.Config
	Client kubernetes.Interface
}

// Pages is the source of metrics pages a Config describes. Open it once, then Read it: again
// and again for a live view, each Read sampling the same sources over the connections they
// keep (the API server's client, HTTP keep-alives); saved pages run out after one Read.
type Pages struct {
	cfg  Config
	kube func() (*Kube, error)
	inv  *source.Inventory
	// pages are the readable targets' page sources, in the order of inv.Targets after the URL
	// and file ones.
	pages []scrape.Source
	// warnings are gathered while Open works.
	warnings []string
	// forward is the port-forward transport of the cluster's targets, once opened.
	forward *scrape.PortForward
	// ndirect is how many of pages are the URL and file ones, which rediscovery leaves be.
	ndirect int
	// k, conn and disc are the cluster connection, the transports and the discovery options
	// (with what Open learnt it may list), kept for the rediscoveries.
	k    *Kube
	conn *clusterConn
	disc discover.Options
}

var _ source.Source = (*Pages)(nil)

// New returns the source cfg describes. kube is called only when the cluster is used.
func New(cfg Config, kube func() (*Kube, error)) *Pages {
	return &Pages{cfg: cfg, kube: kube}
}

// warn records a warning for the inventory.
func (p *Pages) warn(s string) { p.warnings = append(p.warnings, s) }

// Open finds the targets: the files and URLs given, and the cluster's by discovery, each
// checked against the permissions its way of reaching it needs.
func (p *Pages) Open(ctx context.Context) (*source.Inventory, error) {
	if p.inv != nil {
		return p.inv, nil
	}
	inv := &source.Inventory{}
	var err error
	if p.pages, err = p.directSources(); err != nil {
		return nil, err
	}
	p.ndirect = len(p.pages)
	direct := make([]target.Target, 0, len(p.pages))
	for _, src := range p.pages {
		direct = append(direct, src.Target())
	}
	if p.cfg.Cluster {
		k, err := p.kube()
		if err != nil {
			return nil, err
		}
		p.k = k
		inv.Cluster = &cluster{kube: k}
		if err := p.discover(ctx, k, inv); err != nil {
			return nil, err
		}
		if err := p.connect(ctx, k); err != nil {
			return nil, err
		}
		pages, err := p.clusterSources(ctx, k, inv)
		if err != nil {
			return nil, err
		}
		p.pages = append(p.pages, pages...)
		pods := targetPods(inv.Pods, inv.Targets)
		for _, u := range inv.Unreadable {
			if u.Pod != nil {
				pods[u.Pod.Namespace+"/"+u.Pod.Name] = u.Pod
			}
		}
		inv.WatchEnv = watchEnvs(ctx, k.Client, pods)
		for i, u := range inv.Unreadable {
			if u.Pod != nil {
				inv.Unreadable[i].WatchEnv = inv.WatchEnv[u.Pod.Namespace+"/"+u.Pod.Name]
			}
		}
	}
	inv.Targets = append(direct, inv.Targets...)
	inv.Warnings = p.warnings
	p.inv = inv
	return inv, nil
}

// Read samples every readable target; the unreadable ones are returned as failed Results.
func (p *Pages) Read(ctx context.Context, o source.Options) []source.Result {
	if p.inv == nil {
		return nil
	}
	results := Collect(ctx, p.pages, o)
	for i := range results {
		t := results[i].Target
		if t.Kind == target.KindPod {
			results[i].Pod = p.inv.Pods[t.Namespace+"/"+t.Name]
			results[i].WatchEnv = p.inv.WatchEnv[t.Namespace+"/"+t.Name]
		}
	}
	return append(results, p.inv.Unreadable...)
}

// Close closes what the source keeps open across Reads: the kept port-forwards.
func (p *Pages) Close() error {
	if p.forward != nil {
		p.forward.Close()
	}
	return nil
}

func (p *Pages) directSources() ([]scrape.Source, error) {
	cfg := p.cfg
	var out []scrape.Source
	files, err := ParseFiles(cfg.Files)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		out = append(out, &scrape.FileSource{Label: f.Name, Paths: f.Paths, MaxBodyBytes: cfg.HTTP.MaxBodyBytes, Stdin: cfg.Stdin})
	}
	if len(cfg.URLs) == 0 {
		return out, nil
	}
	client, err := scrape.NewHTTPClient(cfg.HTTP)
	if err != nil {
		return nil, err
	}
	for _, u := range cfg.URLs {
		src, err := scrape.NewURLSource(u, client, cfg.HTTP)
		if err != nil {
			return nil, err
		}
		if cfg.HTTP.Token != "" && src.URL.Scheme == "http" {
			p.warn(src.Name() + ": the bearer token is sent over plain http")
		}
		out = append(out, src)
	}
	return out, nil
}

// discover checks the list permissions and finds the targets.
func (p *Pages) discover(ctx context.Context, k *Kube, inv *source.Inventory) error {
	cfg := p.cfg
	ns := cfg.Discover.Namespace
	want := []access.Permission{access.ListPods(ns)}
	if len(cfg.Discover.Explicit) == 0 {
		want = append(want, access.ListServices(ns))
	}
	missing, err := access.Missing(ctx, k.Client, want)
	if err != nil {
		return unreachable(k, err)
	}
	for _, m := range missing {
		if m.Resource == "pods" {
			return &access.Error{Missing: []access.Permission{m}}
		}
		cfg.Discover.SkipServices = true
		p.warn(fmt.Sprintf("you may not %s: kubebuilder metrics Services are not looked at", m))
	}
	if k.Config != nil {
		// ServiceMonitors and PodMonitors are read with the dynamic client, when served.
		if cfg.Discover.Dynamic, err = dynamic.NewForConfig(k.Config); err != nil {
			return fmt.Errorf("kubeconfig: %w", err)
		}
	}
	p.disc = cfg.Discover
	res, err := discover.Discover(ctx, k.Client, cfg.Discover)
	if err != nil {
		return err
	}
	if len(res.Targets) == 0 && ns != "" {
		// Listing pods of a namespace that does not exist succeeds with nothing: say so.
		if _, err := k.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			return fmt.Errorf("namespace %q does not exist: check -n (kubectl get namespaces) or use -A", ns)
		}
	}
	p.warnings = append(p.warnings, res.Warnings...)
	inv.Targets, inv.Skipped, inv.Pods = res.Targets, res.Skipped, res.Pods
	return nil
}

// unreachable explains a failure of the first API call: usually a wrong kubeconfig or context.
func unreachable(k *Kube, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("cannot reach the API server at %s (%v): check --kubeconfig and --context", k.Config.Host, ue.Err)
	}
	return err
}
