package collect

import (
	"context"
	"fmt"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// clusterConn is what the cluster's page sources share, built once by connect and kept for
// the rediscoveries: the transports (with the kept port-forwards) and the permissions checked.
type clusterConn struct {
	cfg       Config // with the metrics token resolved
	withToken bool
	proxy     *scrape.Proxy
	forward   *scrape.PortForward
	// bare is a port-forward that sends no credentials, for the endpoints the user did not
	// point the metrics token at (a pprof port found in the pod).
	bare   *scrape.PortForward
	direct *scrape.APIServer
	// checked are the ways whose permission was asked; denied those refused.
	checked map[way]bool
	denied  map[way]access.Permission
}

// connect resolves the metrics token and builds the transports.
func (p *Pages) connect(ctx context.Context, k *Kube) error {
	cfg := p.cfg
	if err := resolveToken(ctx, &cfg, k); err != nil {
		return err
	}
	cluster, err := scrape.NewCluster(k.Config)
	if err != nil {
		return err
	}
	client, err := scrape.NewHTTPClient(cfg.HTTP)
	if err != nil {
		return err
	}
	p.conn = &clusterConn{cfg: cfg, withToken: cfg.HTTP.Token != "",
		proxy:   &scrape.Proxy{Cluster: cluster},
		forward: &scrape.PortForward{Cluster: cluster, Client: client, Token: cfg.HTTP.Token, Keep: cfg.KeepForwards},
		bare:    &scrape.PortForward{Cluster: cluster, Client: client},
		direct:  &scrape.APIServer{Cluster: cluster},
		checked: map[way]bool{}, denied: map[way]access.Permission{}}
	p.forward = p.conn.forward
	return nil
}

// clusterSources picks each target's transport, checks the permissions each way needs once per
// namespace (ways checked before are not asked again), and returns the page sources of the
// readable targets. A target whose way is forbidden becomes unreadable.
func (p *Pages) clusterSources(ctx context.Context, k *Kube, inv *source.Inventory) ([]scrape.Source, error) {
	c := p.conn
	cfg := c.cfg
	for i := range inv.Targets {
		inv.Targets[i].Via, inv.Targets[i].ViaReason = scrape.Choose(inv.Targets[i], cfg.Via, c.withToken)
	}
	denied, err := c.deniedWays(ctx, k, inv.Targets)
	if err != nil {
		return nil, err
	}
	var pages []scrape.Source
	readable := inv.Targets[:0]
	for _, t := range inv.Targets {
		if perm, ok := denied[way{t.Via, t.Namespace}]; ok && t.Via == target.ViaProxy && (cfg.Via == target.ViaAuto || cfg.Via == "") {
			if _, pfDenied := denied[way{target.ViaPortForward, t.Namespace}]; !pfDenied {
				t.Via, t.ViaReason = target.ViaPortForward, "you may not "+perm.String()+"; port-forward is allowed"
			}
		}
		if perm, ok := denied[way{t.Via, t.Namespace}]; ok {
			inv.Unreadable = append(inv.Unreadable, source.Result{Target: t, Pod: inv.Pods[t.Namespace+"/"+t.Name],
				Err: &access.Error{Missing: []access.Permission{perm}}})
			continue
		}
		readable = append(readable, t)
		src := &scrape.ClusterSource{Endpoint: t, WithToken: c.withToken, Token: cfg.HTTP.Token, MaxBodyBytes: cfg.HTTP.MaxBodyBytes}
		switch t.Via {
		case target.ViaProxy:
			src.Transport = c.proxy
			if cfg.Via == target.ViaAuto || cfg.Via == "" {
				if _, forbidden := denied[way{target.ViaPortForward, t.Namespace}]; !forbidden {
					src.Fallback = c.forward
				}
			}
		case target.ViaPortForward:
			src.Transport = c.forward
		default:
			src.Transport = c.direct
		}
		pages = append(pages, src)
	}
	inv.Targets = readable
	return pages, nil
}

type way struct {
	via target.Via
	ns  string
}

// deniedWays asks, once per (way, namespace) over the source's life, for the permission that
// way needs; a proxy target also asks about port-forward, its fallback. It returns the missing
// permissions of every way checked so far.
func (c *clusterConn) deniedWays(ctx context.Context, k *Kube, ts []target.Target) (map[way]access.Permission, error) {
	need := map[way]access.Permission{}
	ask := func(w way, p access.Permission) {
		if !c.checked[w] {
			need[w] = p
		}
	}
	for _, t := range ts {
		switch t.Via {
		case target.ViaProxy:
			ask(way{target.ViaProxy, t.Namespace}, access.ProxyPods(t.Namespace))
			ask(way{target.ViaPortForward, t.Namespace}, access.PortForwardPods(t.Namespace))
		case target.ViaPortForward:
			ask(way{target.ViaPortForward, t.Namespace}, access.PortForwardPods(t.Namespace))
		case target.ViaDirect:
			ask(way{target.ViaDirect, ""}, access.APIServerMetrics())
		}
	}
	if len(need) == 0 {
		return c.denied, nil
	}
	keys := make([]way, 0, len(need))
	for w := range need {
		keys = append(keys, w)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	perms := make([]access.Permission, len(keys))
	for i, w := range keys {
		perms[i] = need[w]
	}
	missing, err := access.Missing(ctx, k.Client, perms)
	if err != nil {
		return nil, err
	}
	for w := range need {
		c.checked[w] = true
	}
	for _, m := range missing {
		for w, p := range need {
			if p == m {
				c.denied[w] = m
			}
		}
	}
	return c.denied, nil
}

// resolveToken fills cfg.HTTP.Token from --token-from-sa or the kubeconfig when asked.
func resolveToken(ctx context.Context, cfg *Config, k *Kube) error {
	switch {
	case cfg.TokenFromSA != "":
		ns, name, err := ParseServiceAccount(cfg.TokenFromSA)
		if err != nil {
			return err
		}
		tok, err := TokenFromServiceAccount(ctx, k.Client, ns, name)
		if err != nil {
			return err
		}
		redact.Add(tok)
		cfg.HTTP.Token = tok
	case cfg.UseKubeconfigToken:
		if k.Config.BearerToken == "" {
			return fmt.Errorf("--use-kubeconfig-token: the kubeconfig's user has no bearer token (client certificates cannot be sent to a metrics endpoint): use --token-from-sa NAMESPACE/SERVICEACCOUNT")
		}
		cfg.HTTP.Token = k.Config.BearerToken
	}
	return nil
}
