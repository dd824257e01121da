// This file decides which HTTP redirects a client may follow, so that credentials (a
// bearer token, basic auth, custom headers) never travel over plain HTTP or to a host or port
// the user did not name. The metrics scraper and the Prometheus client share it.

package redact

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// MaxRedirects is how many redirects are followed at most.
const MaxRedirects = 5

// CheckRedirect returns an http.Client's CheckRedirect. A request carries credentials when
// credentials says so (the caller sends them in a way the request does not show: custom
// headers, a transport that adds its own) or when the first request has an Authorization
// header or user information in its URL. With credentials, a redirect from https to http, or
// to another host or port, is refused with a RefusedError. Without, a redirect to another host
// is not followed (the redirect answer itself is returned), nor one past MaxHops.
func CheckRedirect(credentials bool) func(req *http.Request, via []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) == 0 {
			return nil
		}
		first, prev := via[0], via[len(via)-1]
		if credentials || first.Header.Get("Authorization") != "" || first.URL.User != nil {
			switch {
			case first.URL.Scheme == "https" && req.URL.Scheme != "https":
				return &RedirectRefusedError{From: prev.URL, To: req.URL, Downgrade: true}
			case !sameEndpoint(first.URL, req.URL):
				return &RedirectRefusedError{From: prev.URL, To: req.URL}
			}
		}
		if len(via) >= MaxRedirects || !strings.EqualFold(req.URL.Host, first.URL.Host) {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// sameEndpoint reports whether a and b name the same host and port (the scheme's default
// port when none is given).
func sameEndpoint(a, b *url.URL) bool {
	return strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// RedirectRefusedError is a redirect not followed because it would send credentials where they must
// not go.
type RedirectRefusedError struct {
	From, To *url.URL
	// Downgrade says the redirect goes from https to plain http; otherwise it goes to another
	// host or port.
	Downgrade bool
}

func (e *RedirectRefusedError) Error() string {
	if e.Downgrade {
		return fmt.Sprintf("refused redirect from %s to %s: it would send the credentials (bearer token, basic auth or headers) "+
			"over plain HTTP; give the final https:// URL, or ask why the server sends HTTPS clients to HTTP", URL(e.From), URL(e.To))
	}
	return fmt.Sprintf("refused redirect from %s to %s: it would send the credentials (bearer token, basic auth or headers) "+
		"to another host or port (%s); give the final URL if that host is meant to get them", URL(e.From), URL(e.To), hostPort(e.To))
}

func hostPort(u *url.URL) string { return net.JoinHostPort(u.Hostname(), port(u)) }
