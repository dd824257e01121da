package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// openPrometheus builds the source of a Prometheus server's series, with the kubeconfig's
// cluster attached when Prometheus.WithCluster asks.
func openPrometheus(s Spec, in Inputs) (Opened, error) {
	p := s.Prometheus
	client, err := promClient(s, in.Kubeconfig)
	if err != nil {
		return Opened{}, err
	}
	window := p.Window
	if window <= 0 {
		window = promsource.DefaultWindow
	}
	res, _ := maxSourceResolution(p) // checked by promClient
	src := promsource.New(promsource.Config{Client: client, At: p.At, Window: window, ClusterLabel: p.ClusterLabel,
		Clusters: p.Clusters, Namespace: s.Namespace, Log: in.Log, MaxSourceResolution: res,
		AutoResolution: p.MaxSourceResolution == "" || p.MaxSourceResolution == "auto", Now: p.Now})
	scope := fmt.Sprintf("Prometheus %s", client.Name())
	if s.Namespace != "" {
		scope += ", namespace " + s.Namespace
	}
	if len(p.Clusters) > 0 {
		scope += ", clusters " + strings.Join(p.Clusters, ",")
	}
	var ss source.Source = src
	if p.WithCluster {
		ss = withCluster(s, in.Kubeconfig, src, window)
	}
	at := p.At
	return Opened{
		Source: ss,
		Scope:  source.Scope{Namespace: s.Namespace, Label: scope},
		Read:   source.Options{Timeout: p.Timeout, Concurrency: s.Concurrency},
		Now:    func() time.Time { return at },
	}, nil
}

// withCluster adds the kubeconfig's cluster to the series when it is the one read and the
// window ends now or less than one window ago: one cluster (or no cluster label) in the
// series, and the pods they name found there by namespace and name.
func withCluster(s Spec, k Kubeconfig, src source.Source, window time.Duration) source.Source {
	at, now, label := s.Prometheus.At, s.Prometheus.Now, s.Prometheus.ClusterLabel
	return &collect.WithCluster{Inner: src, Kube: connector(k, s.Timeout), Pods: promsource.PodsOfNow, Now: time.Now,
		Absent: func(ts []target.Target) string { return promsource.ClusterOfNow(at, now, window, ts, label) }}
}

// openWithHistory builds the source of the targets themselves, and the server as where their
// recent history is asked.
func openWithHistory(s Spec, in Inputs) (Opened, error) {
	p := s.Prometheus
	client, err := promClient(s, in.Kubeconfig)
	if err != nil {
		return Opened{}, err
	}
	o := openLive(s, in)
	o.History = &promsource.History{Client: client, ClusterLabel: p.ClusterLabel, Clusters: p.Clusters,
		Step: p.HistoryStep, Points: p.HistoryPoints}
	return o, nil
}
