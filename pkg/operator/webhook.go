package operator

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// webhookPath is where the scenario's webhook is served.
const webhookPath = "/validate-slow"

// checkWebhookAddress checks --webhook-bind-address: a HOST the API server can call (not
// empty, not 0.0.0.0 or ::) and a port.
func checkWebhookAddress(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--webhook-bind-address %q: want HOST:PORT: %v", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return fmt.Errorf("--webhook-bind-address %q: HOST must be an address the API server calls the webhook at (e.g. the pod's IP), not %q", addr, host)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("--webhook-bind-address %q: the port must be 1-65535", addr)
	}
	return nil
}

// slowWebhookServer is controller-runtime's webhook server (so the process exports
// controller_runtime_webhook_latency_seconds) at addr, with a self-signed certificate for its
// host written to a new temporary directory, serving a handler that allows every request after
// delay. It returns the server, the certificate (the configuration's caBundle) and a function
// that removes the directory.
func slowWebhookServer(addr string, delay time.Duration) (webhook.Server, []byte, func(), error) {
	host, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	certPEM, keyPEM, err := selfSigned(host)
	if err != nil {
		return nil, nil, nil, err
	}
	dir, err := os.MkdirTemp("", "ctrldiag-webhook-")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("webhook certificate directory: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	for name, b := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			cleanup()
			return nil, nil, nil, fmt.Errorf("webhook certificate: %w", err)
		}
	}
	srv := webhook.NewServer(webhook.Options{Host: host, Port: port, CertDir: dir})
	srv.Register(webhookPath, &admission.Webhook{Handler: admission.HandlerFunc(func(ctx context.Context, _ admission.Request) admission.Response {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
		}
		return admission.Allowed("")
	})})
	return srv, certPEM, cleanup, nil
}

// selfSigned makes a certificate (its own CA) and key for host, an IP or a DNS name.
func selfSigned(host string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("webhook key: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano()), Subject: pkix.Name{CommonName: host},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0), IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("webhook certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("webhook key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// webhookConfiguration is the scenario's ValidatingWebhookConfiguration: the operator's
// namespace only, failurePolicy Ignore (an operator that stopped blocks nothing).
func webhookConfiguration(wh scenario.Webhook, ns, addr string, ca []byte) *admissionregistrationv1.ValidatingWebhookConfiguration {
	url := "https://" + addr + webhookPath
	ignore := admissionregistrationv1.Ignore
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(10)
	scope := admissionregistrationv1.NamespacedScope
	var rules []admissionregistrationv1.RuleWithOperations
	for _, r := range wh.Rules {
		rule := admissionregistrationv1.RuleWithOperations{Rule: admissionregistrationv1.Rule{APIGroups: []string{r.Group},
			APIVersions: []string{"*"}, Resources: []string{r.Resource}, Scope: &scope}}
		for _, v := range r.Verbs {
			rule.Operations = append(rule.Operations, admissionregistrationv1.OperationType(v))
		}
		rules = append(rules, rule)
	}
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "ctrldiag-slow-webhook-" + ns, Labels: map[string]string{"app.kubernetes.io/managed-by": "ctrldiag-demo"}},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:                    "slow.demo.ctrldiag.dev",
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: ca},
			Rules:                   rules,
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}},
			FailurePolicy:           &ignore,
			SideEffects:             &none,
			TimeoutSeconds:          &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
}

// registerWebhook creates the configuration (replacing one an earlier run left) and returns
// the function that deletes it.
func registerWebhook(ctx context.Context, c client.Client, cfg *admissionregistrationv1.ValidatingWebhookConfiguration) (func(), error) {
	if err := c.Create(ctx, cfg); err != nil {
		if client.IgnoreAlreadyExists(err) != nil {
			return nil, fmt.Errorf("create ValidatingWebhookConfiguration %s: %w", cfg.Name, err)
		}
		if err := c.Delete(ctx, cfg); client.IgnoreNotFound(err) != nil {
			return nil, fmt.Errorf("replace ValidatingWebhookConfiguration %s: %w", cfg.Name, err)
		}
		cfg.ResourceVersion = ""
		if err := c.Create(ctx, cfg); err != nil {
			return nil, fmt.Errorf("create ValidatingWebhookConfiguration %s: %w", cfg.Name, err)
		}
	}
	log.FromContext(ctx).Info("registered the scenario's admission webhook", "configuration", cfg.Name, "url", *cfg.Webhooks[0].ClientConfig.URL)
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Delete(ctx, cfg); client.IgnoreNotFound(err) != nil {
			log.FromContext(ctx).Error(err, "delete the scenario's admission webhook", "configuration", cfg.Name)
		}
	}, nil
}
