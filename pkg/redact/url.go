package redact

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// urlMask replaces a password or a credential-looking query value in a printed URL, as
// url.URL.Redacted does.
const urlMask = "xxxxx"

// credentialParam tells the query parameters whose values are credentials: token,
// access_token, apikey, api-key, key, password, secret, auth, signature and the like.
var credentialParam = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|key|pass|pwd|secret|auth|sig|credential|session`)
})

// AddURL registers what a URL carries as credentials: the password of its user information
// (sent as basic auth, so in its forms too) and the values of its credential-looking query
// parameters.
func AddURL(u *url.URL) {
	if u == nil {
		return
	}
	if p, ok := u.User.Password(); ok {
		AddBasicAuth(u.User.Username(), p)
	}
	for name, values := range u.Query() {
		if credentialParam().MatchString(name) {
			Add(values...)
		}
	}
}

// URL is u as it may be printed: without the password (url.URL.Redacted), with the values of
// credential-looking query parameters replaced by xxxxx (the other parameters stay, in their
// order), and no control character (printable.String).
func URL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.RawQuery = query(u.RawQuery)
	return printable.String(c.Redacted())
}

// URLString is URL for a URL given as text; text that does not parse as a URL with a host
// (user:password@host:port parses as the scheme "user") loses everything from its scheme to an
// @ and the values of credential-looking parameters.
func URLString(raw string) string {
	if u, err := url.Parse(raw); err == nil && (u.Opaque == "" || !strings.Contains(u.Opaque, "@")) {
		return URL(u)
	}
	s := raw
	if at := strings.LastIndex(s, "@"); at >= 0 {
		start := strings.Index(s, "://") + len("://")
		if start < len("://") || start > at {
			start = 0
		}
		s = s[:start] + urlMask + s[at:]
	}
	if q := strings.IndexAny(s, "?"); q >= 0 {
		s = s[:q+1] + query(s[q+1:])
	}
	return printable.String(String(s))
}

// query masks the values of the credential-looking parameters of a raw query.
func query(raw string) string {
	if raw == "" {
		return raw
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if hasValue && credentialParam().MatchString(name) {
			parts[i] = p[:strings.Index(p, "=")+1] + urlMask
		}
	}
	return strings.Join(parts, "&")
}
