// Package redirect decides which HTTP redirects a client may follow, so that credentials (a
// bearer token, basic auth, custom headers) never travel over plain HTTP or to a host or port
// the user did not name. The metrics scraper and the Prometheus client share it.
package redirect

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// MaxHops is how many redirects are followed at most.
const MaxHops = 5

// Check returns an http.Client's CheckRedirect. A request carries credentials when
// credentials says so (the caller sends them in a way the request does not show: custom
// headers, a transport that adds its own) or when the first request has an Authorization
// header or user information in its URL. With credentials, a redirect from https to http, or
// to another host or port, is refused with a RefusedError. Without, a redirect to another host
// is not followed (the redirect answer itself is returned), nor one past MaxHops.
func Check(credentials bool) func(req *http.Request, via []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) == 0 {
			return nil
		}
		first, prev := via[0], via[len(via)-1]
		if credentials || first.Header.Get("Authorization") != "" || first.URL.User != nil {
			switch {
			case first.URL.Scheme == "https" && req.URL.Scheme != "https":
				return &RefusedError{From: prev.URL, To: req.URL, Downgrade: true}
			case !sameEndpoint(first.URL, req.URL):
				return &RefusedError{From: prev.URL, To: req.URL}
			}
		}
		if len(via) >= MaxHops || !strings.EqualFold(req.URL.Host, first.URL.Host) {
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

// RefusedError is a redirect not followed because it would send credentials where they must
// not go.
type RefusedError struct {
	From, To *url.URL
	// Downgrade says the redirect goes from https to plain http; otherwise it goes to another
	// host or port.
	Downgrade bool
}

func (e *RefusedError) Error() string {
	if e.Downgrade {
		return fmt.Sprintf("refused redirect from %s to %s: it would send the credentials (bearer token, basic auth or headers) "+
			"over plain HTTP; give the final https:// URL, or ask why the server sends HTTPS clients to HTTP", redact.URL(e.From), redact.URL(e.To))
	}
	return fmt.Sprintf("refused redirect from %s to %s: it would send the credentials (bearer token, basic auth or headers) "+
		"to another host or port (%s); give the final URL if that host is meant to get them", redact.URL(e.From), redact.URL(e.To), hostPort(e.To))
}

func hostPort(u *url.URL) string { return net.JoinHostPort(u.Hostname(), port(u)) }
