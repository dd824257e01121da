package scrape

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// explainStatus turns a non-200 answer into an error that says what to do.
func explainStatus(resp *http.Response, withToken bool, body string) error {
	code := resp.StatusCode
	status := fmt.Sprintf("%d %s", code, http.StatusText(code))
	switch {
	case code >= 300 && code < 400:
		where := resp.Header.Get("Location")
		if where == "" {
			where = "(no Location)"
		} else {
			where = redact.URLString(where)
		}
		return fmt.Errorf("%s: the endpoint redirects to %s, which was not followed (a redirect loop, more than 5 redirects, "+
			"or another host, which must not get the token): give the final metrics URL", status, where)
	case code == http.StatusBadRequest && strings.Contains(body, "HTTP request to an HTTPS server"):
		return fmt.Errorf("%s: the endpoint speaks HTTPS, not plain HTTP: use an https:// URL (in a cluster: --scheme https)", status)
	case code == http.StatusUnauthorized && withToken:
		return fmt.Errorf("%s: the endpoint rejected the bearer token: check that --token/--token-file holds a valid, unexpired token", status)
	case code == http.StatusUnauthorized:
		return fmt.Errorf("%s: the endpoint needs a bearer token: pass --token or --token-file (e.g. `kubectl create token SA -n NS`)", status)
	case code == http.StatusForbidden:
		return fmt.Errorf("%s: the token is valid but may not read metrics: bind its user to a ClusterRole allowing get on the non-resource URL /metrics (kubebuilder's metrics-reader)", status)
	case code == http.StatusNotFound:
		return fmt.Errorf("%s: nothing serves metrics at this path: check the URL's port and path (usually /metrics)", status)
	case code >= 500:
		msg := redact.ExcerptString(body)
		if msg != "" {
			msg = ": " + msg
		}
		return fmt.Errorf("%s: the endpoint failed to produce its metrics; try again or look at the target's logs%s", status, msg)
	}
	return fmt.Errorf("%s: unexpected answer from the metrics endpoint", status)
}

// explainRead is explainTransport of an error met while asking ctx's question or reading its
// answer: once ctx is done (the page's --timeout), whatever the read then meets (a connection
// closed under it, a reset) only follows from that, so the error is ctx's.
func explainRead(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return explainTransport(ctx.Err())
	}
	return explainTransport(err)
}

// explainTransport adds the likely fix to connection and TLS errors.
func explainTransport(err error) error {
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var refused *redact.RedirectRefusedError
	switch {
	case errors.As(err, &refused):
		return refused // it names both URLs, without their credentials
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no complete answer within the timeout (--timeout): the endpoint is slow or hangs")
	case errors.As(err, &unknown):
		return fmt.Errorf("%v: pass the signing CA with --metrics-ca-file, or --insecure-skip-tls-verify-metrics for a self-signed test endpoint", err)
	case errors.As(err, &hostname), errors.As(err, &invalid):
		return fmt.Errorf("%v: the certificate does not match; use --metrics-ca-file with the right CA or --insecure-skip-tls-verify-metrics", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%v: nothing listens there: check the host and port of the URL", err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		strings.Contains(err.Error(), "stream error"), strings.Contains(err.Error(), "connection reset"):
		return fmt.Errorf("%v: the connection broke before the page was complete (the target restarted or went away, "+
			"or a proxy in between closed it); try again", err)
	case strings.Contains(err.Error(), "no such host"):
		return fmt.Errorf("%v: the host name does not resolve: check the URL", err)
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return fmt.Errorf("%v: the endpoint speaks plain HTTP; use an http:// URL (in a cluster: --scheme http)", err)
	}
	return err
}
