// Package redact keeps credentials out of everything the plugin prints. Tokens are registered
// with Add as soon as they are known (flags, token files, TokenRequest, the kubeconfig), basic
// auth with AddBasicAuth, header values with AddHeader and what a URL carries with AddURL, each
// with the forms it travels in (base64, "Basic <base64>"); String masks them, and any
// "Bearer <token>" or "Basic <base64>". Writer wraps a log destination so that it is masked:
// client-go logs the raw bytes of port-forward streams at high -v, and those carry the metrics
// token in the HTTP request sent through the forward. URL prints a URL without its password or
// credential-looking query values; Excerpt is the one way to quote what a server answered.
//
// CheckRedirect is the same care for HTTP clients: a redirect is followed only where it keeps
// the credentials a request carries on the scheme, host and port they were given for.
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
	// scheme finds the credentials of an Authorization header: "Bearer <token>" and
	// "Basic <base64>", wherever they are echoed.
	scheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)([A-Za-z0-9\-._~+/]+=*)`) })
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

// String masks in s the registered secrets, bearer and basic credentials, and the
// credentials written in text by their form (a URL's password, credential-looking query values
// and pairs, Authorization headers' values).
func String(s string) string {
	mu.RLock()
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, Mask)
	}
	mu.RUnlock()
	return inText(scheme().ReplaceAllStringFunc(s, maskCredential))
}

// maskCredential masks the credential of a "Bearer X" or "Basic X" match. Prose such as
// "the bearer token" or "basic auth" is left as it is: a credential is at least 8 characters
// and not only lower-case letters.
func maskCredential(m string) string {
	sub := scheme().FindStringSubmatch(m)
	cred := sub[3]
	if len(cred) < 8 || strings.Trim(cred, "abcdefghijklmnopqrstuvwxyz") == "" {
		return m
	}
	return sub[1] + sub[2] + Mask
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
