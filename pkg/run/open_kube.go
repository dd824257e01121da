package run

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
)

// Kubeconfig gives the cluster's REST configuration (cli-runtime's ConfigFlags).
type Kubeconfig interface {
	ToRESTConfig() (*rest.Config, error)
}

// Connect builds the client of the kubeconfig's cluster. Its API calls are bounded by timeout
// unless the kubeconfig sets one (--request-timeout): an API server that stops answering must
// not hang discovery or the RBAC checks.
func Connect(k Kubeconfig, timeout time.Duration) (*collect.Kube, error) {
	cfg, err := restConfig(k)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = timeout
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return &collect.Kube{Config: cfg, Client: client}, nil
}

// restConfig is the kubeconfig's REST configuration, its credentials registered with redact.
func restConfig(k Kubeconfig) (*rest.Config, error) {
	if k == nil {
		return nil, errors.New("no kubeconfig")
	}
	cfg, err := k.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	redact.Add(cfg.BearerToken, cfg.Password)
	return cfg, nil
}

// connector is what a source calls to connect to the cluster, when it does.
func connector(k Kubeconfig, timeout time.Duration) func() (*collect.Kube, error) {
	return func() (*collect.Kube, error) { return Connect(k, timeout) }
}
