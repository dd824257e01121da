package run

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// openLive builds the source of the targets themselves: the cluster, TARGETs, URLs, saved
// pages.
func openLive(s Spec, in Inputs) Opened {
	redact.Add(s.Token)
	cfg := collect.Config{
		URLs: s.URLs, Files: s.Files, Stdin: in.Stdin,
		HTTP:    scrape.HTTPConfig{Token: s.Token, CAFile: s.CAFile, InsecureSkipVerify: s.Insecure, MaxBodyBytes: s.MaxBodyBytes},
		Cluster: s.Cluster,
		Discover: discover.Options{Namespace: s.Namespace, Selector: s.Selector, Explicit: s.Explicit, IncludeAPIServer: s.IncludeAPIServer,
			Port: s.Port, Path: s.Path, Scheme: s.Scheme},
		Via: target.Via(s.Via), TokenFromSA: s.TokenFromSA, UseKubeconfigToken: s.UseKubeconfigToken,
		KeepForwards: s.KeepForwards,
	}
	return Opened{
		Source: collect.New(cfg, connector(in.Kubeconfig, s.Timeout)),
		Scope:  source.Scope{Cluster: s.Cluster, Namespace: s.Namespace, Selector: s.Selector},
		Read:   readOptions(s),
	}
}

// readOptions bound the reading of the targets.
func readOptions(s Spec) source.Options {
	return source.Options{Interval: s.Interval, Timeout: s.Timeout, Concurrency: s.Concurrency}
}
