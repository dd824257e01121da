// Package collect turns a scrape configuration into the sources to read: saved pages, URLs, and
// targets in a cluster, found by discovery, checked against RBAC, each with the transport
// (proxy, port-forward, direct) that can reach it and the metrics credentials it needs.
package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Config says what to read.
type Config struct {
	// URLs and Files are read directly; Files entries are "PATH" or "BEFORE,AFTER".
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
}

// Kube is the cluster connection, built only when the cluster is used.
type Kube struct {
	Config *rest.Config
	Client kubernetes.Interface
}

// Plan is what will be read.
type Plan struct {
	Sources []scrape.Source
	// Targets are the readable cluster targets, in the order of their sources after the URL and
	// file ones.
	Targets []target.Target
	Skipped []discover.Skipped
	// Pods are the pods behind targets and skipped pods, by "namespace/name".
	Pods map[string]*corev1.Pod
	// Failed are targets that cannot be read at all (e.g. a missing permission), with why.
	Failed []Failure
	// Warnings are things the user should know (printed on stderr by the command). Sources
	// add to it while they are read, concurrently: use Warn, and read it after reading.
	Warnings []string
	// Kube is the cluster connection; nil when the cluster is not read.
	Kube *Kube
	mu   sync.Mutex
}

// Warn records a warning; safe for concurrent use.
func (p *Plan) Warn(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Warnings = append(p.Warnings, s)
}

// Failure is a target that was found but cannot be read.
type Failure struct {
	Target target.Target
	Err    error
}

// Build makes the plan. kube is called only when the cluster is used.
func Build(ctx context.Context, cfg Config, kube func() (*Kube, error)) (*Plan, error) {
	p := &Plan{}
	var err error
	if p.Sources, err = directSources(cfg, p); err != nil {
		return nil, err
	}
	if !cfg.Cluster {
		return p, nil
	}
	k, err := kube()
	if err != nil {
		return nil, err
	}
	p.Kube = k
	if err := p.discover(ctx, cfg, k); err != nil {
		return nil, err
	}
	if err := p.clusterSources(ctx, cfg, k); err != nil {
		return nil, err
	}
	return p, nil
}

func directSources(cfg Config, p *Plan) ([]scrape.Source, error) {
	var out []scrape.Source
	for _, f := range cfg.Files {
		out = append(out, &scrape.FileSource{Paths: strings.Split(f, ","), MaxBodyBytes: cfg.HTTP.MaxBodyBytes, Stdin: cfg.Stdin})
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
			p.Warn(src.Name() + ": the bearer token is sent over plain http")
		}
		out = append(out, src)
	}
	return out, nil
}

// discover checks the list permissions and finds the targets.
func (p *Plan) discover(ctx context.Context, cfg Config, k *Kube) error {
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
		p.Warn(fmt.Sprintf("you may not %s: kubebuilder metrics Services are not looked at", m))
	}
	if k.Config != nil {
		// ServiceMonitors and PodMonitors are read with the dynamic client, when served.
		if cfg.Discover.Dynamic, err = dynamic.NewForConfig(k.Config); err != nil {
			return fmt.Errorf("kubeconfig: %w", err)
		}
	}
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
	for _, w := range res.Warnings {
		p.Warn(w)
	}
	p.Targets, p.Skipped, p.Pods = res.Targets, res.Skipped, res.Pods
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
