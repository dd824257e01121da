package scrape

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// parseURL reads a --url value. The error shows the value as typed, without its credentials
// (redact.URLString), and says what is missing: a scheme (with the http:// URL meant), an
// http or https scheme, a host.
func parseURL(raw string) (*url.URL, error) {
	if !strings.Contains(raw, "://") {
		meant := "http://" + strings.TrimPrefix(strings.TrimPrefix(raw, "http:"), "https:")
		shown := strings.TrimPrefix(redact.URLString("http://"+raw), "http://")
		if u, err := url.Parse(meant); err == nil && u.Host != "" {
			return nil, fmt.Errorf("--url %q: not a URL with a scheme; did you mean %s?", shown, redact.URL(u))
		}
		return nil, fmt.Errorf("--url %q: not a URL with a scheme, e.g. http://127.0.0.1:8080/metrics", shown)
	}
	shown := redact.URLString(raw)
	u, err := url.Parse(raw)
	var ue *url.Error
	switch {
	case errors.As(err, &ue):
		return nil, fmt.Errorf("--url %q: not a URL: %s", shown, redact.String(ue.Err.Error()))
	case err != nil:
		return nil, fmt.Errorf("--url %q: not a URL", shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("--url %q: the scheme must be http or https, not %s", shown, u.Scheme)
	case u.Host == "":
		return nil, fmt.Errorf("--url %q: no host, e.g. http://127.0.0.1:8080/metrics", shown)
	}
	return u, nil
}
