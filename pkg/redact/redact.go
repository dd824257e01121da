// Package redact keeps credentials out of everything the plugin prints. Tokens are registered
// with Add as soon as they are known (flags, token files, TokenRequest, the kubeconfig); Writer
// wraps a log destination so that registered tokens, and any "Bearer <token>", are masked.
// client-go logs the raw bytes of port-forward streams at high -v, and those carry the
// metrics token in the HTTP request sent through the forward.
package redact

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces a secret.
const Mask = "[REDACTED]"

var (
	mu      sync.RWMutex
	secrets []string
	bearer  = regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9\-._~+/]+=*`)
)

// Add registers secrets to mask (empty strings are ignored).
func Add(s ...string) {
	mu.Lock()
	defer mu.Unlock()
	for _, v := range s {
		if v = strings.TrimSpace(v); v != "" {
			secrets = append(secrets, v)
		}
	}
}

// String masks the registered secrets and bearer tokens in s.
func String(s string) string {
	mu.RLock()
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, Mask)
	}
	mu.RUnlock()
	return bearer.ReplaceAllString(s, "${1}"+Mask)
}

// Writer returns a writer that masks what is written to w. Each Write is masked on its own:
// klog writes one whole log line per call.
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct{ w io.Writer }

func (r *writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
